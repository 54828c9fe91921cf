import Foundation
import GRDB
import MeridianCLI
import MeridianCore
import MeridianStore
import RunTracker
import Workloads

/// The route benchmark of `meridian-bench runs`: runs along a few dozen courses from one front door (rectangular
/// loops of 2.4–5.6 km in both directions, so every run starts and finishes at the same place), imported through the
/// tracker (which files each run in its route as it is saved), then every run regrouped from scratch.
enum RouteBenchmark {
    /// Loop shapes; each is run in both directions, so there are twice as many routes.
    static let shapes = 25

    static func run(path: String, runs: Int) async throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path) exists; give a new file", code: 2)
        }
        let store = try Store.open(path: path)
        let runStore = try RunStore(store: store)
        let origin = try Coordinate(latitude: 48.137, longitude: 11.575)
        let start = Date(timeIntervalSince1970: 1_577_865_600)
        let courses = (0..<shapes).flatMap { shape -> [SyntheticCourse] in
            let loop = SyntheticCourse.loop(
                origin: origin, width: 500 + 31 * Double(shape), height: 700 + 47 * Double(shape % 9),
                heading: 14.4 * Double(shape))
            return [loop, loop.reversed()]
        }
        var points = 0
        var importSeconds = 0.0
        for index in 0..<runs {
            let pace = 270 + Double(index * 37 % 90)
            let run = courses[index % courses.count].run(
                id: String(format: "route-%05d", index), name: "Loop \(index % courses.count)",
                startedAt: start.addingTimeInterval(Double(index) * 43_200), jitter: 3,
                seed: UInt64(index + 1)
            ) { along in 1000 / pace * (1 + 0.08 * sin(along / 400)) }
            points += run.fixes.count
            importSeconds += try await RunsCommand.time {
                _ = try runStore.importRun(run.recording, id: run.id, name: run.name, activity: .run)
            }
        }
        print(
            "routes: imported \(runs) runs along \(courses.count) loops from one start (\(points) fixes) in "
                + "\(RunsCommand.fixed(importSeconds)) s = \(Int(Double(points) / importSeconds)) points/s, each filed in its route as it is saved"
        )
        var samples: [Double] = []
        var count = 0
        for _ in 0..<3 {
            samples.append(
                try await RunsCommand.time {
                    count = try await store.database.write { db in
                        try RouteBook.rebuild(matcher: RouteMatcher(), in: db)
                    }
                })
        }
        let routes = try await store.database.read { db in try RouteBook.list(minimumRuns: 1, in: db) }
        let exact =
            routes.count == min(runs, courses.count)
            && routes.allSatisfy { route in
                route.runs.allSatisfy { $0.name == route.name }
            }
        print(
            "group all \(runs) runs into routes: p50 \(RunsCommand.fixed(samples.sorted()[1])) s "
                + "(\(samples.map { RunsCommand.fixed($0) }.joined(separator: ", ")) s); \(count) routes; "
                + "every loop and direction one route: \(exact ? "yes" : "NO")")
    }
}
