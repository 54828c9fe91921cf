import ActivityFiles
import ArgumentParser
import Foundation
import GRDB
import Hummingbird
import MeridianCLI
import MeridianCore
import MeridianStore
import MeridianWeb
import RunTracker
import Workloads

/// `meridian-bench runs`: imports generated one-hour 1 Hz recordings into a fresh store through the run
/// tracker's pipeline, then times the history paths and compares the records recompute with the plain way.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "Benchmark run import and history (used by scripts/bench-runs).")
    @Option(name: .long, help: "Database file to create (must not exist).") var db: String
    @Option(name: .long, help: "Runs to generate.") var runs = 1000
    @Option(name: .long, help: "Seconds per run (1 Hz).") var duration = 3600
    @Option(name: .long, help: "Timed repetitions of list and load.") var repetitions = 500
    @Option(name: .long, help: "Fixes (1 Hz) of the run whose page is rendered.") var pageFixes = 10_000
    @Option(name: .long, help: "Database file for the route benchmark (must not exist); none skips it.") var routesDb:
        String?
    @Option(name: .long, help: "Runs along shared loops for the route benchmark.") var routeRuns = 1000

    func run() async throws {
        try await reportingFailures {
            guard !FileManager.default.fileExists(atPath: db) else {
                throw CommandFailure("\(db) exists; give a new file", code: 2)
            }
            let store = try Store.open(path: db)
            let runStore = try RunStore(store: store)
            let history = RunHistory(store: store)
            let origin = try Coordinate(latitude: 48.137, longitude: 11.575)
            let start = Date(timeIntervalSince1970: 1_577_865_600)
            let ids = (0..<runs).map(Self.benchID)

            // Segments for every import to be matched against: three stretches of a run from the same start as all of
            // them (imported first, not timed), so each run's box meets theirs and its path is compared.
            let source = try runStore.importRun(
                Self.recording(0, duration: duration, start: start, origin: origin), id: "segment-source",
                name: "Segment source", activity: .run)
            if source != nil {
                try await store.database.write { db in
                    for (from, to) in [(0.0, 1.0), (0.5, 2.5), (3.0, 5.0)] {
                        _ = try SegmentBook.add(
                            SegmentRequest(
                                name: "km \(from)–\(to)", runID: "segment-source",
                                bounds: .kilometres(from: from, to: to)), in: db)
                    }
                }
            }

            // Import through `RunStore.prepareImport` and `store` (the two halves of `importRun`), overlapped: run i is
            // tracked on another thread while run i-1 is written. Generating the recordings is not timed.
            var points = 0
            var importSeconds = 0.0
            var prepared: PreparedImport?
            for index in 0...runs {
                let recording =
                    index < runs ? Self.recording(index, duration: duration, start: start, origin: origin) : nil
                points += recording?.samples.count ?? 0
                let previous = prepared
                importSeconds += try await Self.time {
                    let preparing = Task.detached { [recording] in
                        try recording.flatMap {
                            try RunStore.prepareImport(
                                $0, id: Self.benchID(index), name: "Run \(index)", activity: .run)
                        }
                    }
                    if let previous { _ = try runStore.store(previous) }
                    prepared = try await preparing.value
                }
            }
            print(
                "import: \(runs) runs, \(points) fixes in \(Self.fixed(importSeconds)) s = \(Int(Double(points) / importSeconds)) points/s "
                    + "(heart rate and cadence at every fix, a pause in every third run; tracking engine, rows, points, "
                    + "packed progress, best efforts, records, route filing, efforts searched on 3 segments; one transaction per "
                    + "run; the next run is tracked while one is written)")

            var cursors: [RunCursor?] = [nil]
            while cursors.count < 20,
                let token = try await history.list(RunListQuery(limit: 50, cursor: cursors.last ?? nil)).nextCursor
            {
                cursors.append(try RunCursor(token: token))
            }
            var list: [Double] = []
            for index in 0..<repetitions {
                let cursor = cursors[index % cursors.count]
                list.append(try await Self.time { _ = try await history.list(RunListQuery(limit: 50, cursor: cursor)) })
            }
            Self.report("list a page of 50", list)

            var random = SeededRandom(seed: 2024)
            var load: [Double] = []
            for _ in 0..<repetitions {
                let id = ids[Int.random(in: 0..<runs, using: &random)]
                load.append(try await Self.time { _ = try await history.summaryWithSplits(id: id) })
            }
            Self.report("load one run with km+mile splits", load)

            var detail: [Double] = []
            for _ in 0..<max(5, repetitions / 20) {
                let id = ids[Int.random(in: 0..<runs, using: &random)]
                detail.append(try await Self.time { _ = try await history.detail(id: id) })
            }
            Self.report("full detail (points, analysis, simplified route)", detail)

            try await Self.pageBenchmark(
                runStore: runStore, store: store, fixes: pageFixes, start: start, origin: origin)

            var rebuild: [Double] = []
            var records: [PersonalRecord] = []
            for _ in 0..<5 {
                rebuild.append(try await Self.time { records = try await history.rebuildRecords() })
            }
            Self.report("recompute all personal records from packed progress", rebuild)

            let peer = try await Self.peerRecompute(store)
            let ours = rebuild.sorted()[rebuild.count / 2]
            print(
                "peer (plain: read all \(points) points with GRDB, best efforts per run): \(Self.fixed(peer.seconds * 1000)) ms; "
                    + "ratio peer/ours = \(Self.fixed(peer.seconds / ours))x")
            let same =
                records.count == peer.best.count
                && records.allSatisfy { record in
                    peer.best[record.distance].map { abs($0 - record.elapsedTime) < 1e-6 } ?? false
                }
            print("records agree with the baseline: \(same ? "yes" : "NO")")
            if let routesDb { try await RouteBenchmark.run(path: routesDb, runs: routeRuns) }
        }
    }

    /// Renders the web page of one long run (`fixes` at 1 Hz, with a pause) the way `GET /runs/{id}` does: the
    /// run and its points read, analysed, the map data simplified to 2,000 points, the charts drawn, the templates filled.
    static func pageBenchmark(runStore: RunStore, store: Store, fixes: Int, start: Date, origin: Coordinate)
        async throws
    {
        let run = SyntheticRun(
            id: "bench-page", name: "Long run", startedAt: start.addingTimeInterval(-86_400), origin: origin,
            duration: fixes - 1, pauses: [(offset: fixes / 2, length: 60)], seed: 99)
        _ = try runStore.importRun(run.recording, id: run.id, name: run.name, activity: .run)
        let stored = try await RunHistory(store: store).summary(id: run.id).pointCount
        let page = RunDetailPage(
            store: store, site: .standalone(units: .metric, timeZone: TimeZone(identifier: "UTC") ?? .current))
        var bytes = 0
        var samples: [Double] = []
        for _ in 0..<25 {
            samples.append(
                try await time {
                    bytes = try await page.page(id: run.id).body.contentLength ?? 0
                })
        }
        report(
            "render the page of a \(stored)-point run (read, analyse, simplify, chart, template; \(bytes / 1024) KB of HTML)",
            samples)
    }

    static func benchID(_ index: Int) -> String { String(format: "bench-%05d", index) }

    /// Generated run `index` from `origin`: one hour (`duration` s) at 1 Hz, a different pace per run, a pause in every
    /// third, a heart rate and a cadence at every fix (as a watch with a strap records).
    static func recording(_ index: Int, duration: Int, start: Date, origin: Coordinate) -> RecordedActivity {
        var recording = SyntheticRun(
            id: benchID(index), name: "Run \(index)", startedAt: start.addingTimeInterval(Double(index) * 86_400),
            origin: origin, duration: duration, paceSecondsPerKilometre: 280 + Double(index % 90),
            pauses: index % 3 == 0 ? [(offset: duration / 2, length: 60)] : [], seed: UInt64(index + 1)
        ).recording
        for sample in recording.samples.indices {
            recording.samples[sample].heartRate = Double(130 + (sample + index) % 40)
            recording.samples[sample].cadence = Double(164 + sample % 12)
        }
        return recording
    }

    /// The baseline: every saved run's points read back and its best efforts computed from them.
    static func peerRecompute(_ store: Store) async throws -> (seconds: Double, best: [RecordDistance: Double]) {
        var best: [RecordDistance: Double] = [:]
        let seconds = try await time {
            best = try await store.database.read { db in
                var best: [RecordDistance: Double] = [:]
                let runs = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT id, started_at FROM runs WHERE activity = 'run' AND state = 'stopped' AND deleted_at IS NULL"
                )
                for row in runs {
                    let points = try RunPoints.load(db, runID: row[0])
                    for effort in RunProgress(points: points, start: Date(timeIntervalSince1970: row[1])).bestEfforts()
                    {
                        best[effort.distance] = min(best[effort.distance] ?? .infinity, effort.elapsedTime)
                    }
                }
                return best
            }
        }
        return (seconds, best)
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let elapsed = try await ContinuousClock().measure { try await body() }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func report(_ label: String, _ samples: [Double]) {
        let sorted = samples.sorted()
        let p50 = sorted[sorted.count / 2] * 1000
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1000
        print("\(label): p50 \(fixed(p50)) ms, p99 \(fixed(p99)) ms (\(samples.count) samples)")
    }

    static func fixed(_ value: Double) -> String { NumberText.fixed(value, decimals: 2) }
}
