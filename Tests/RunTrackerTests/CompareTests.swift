import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Comparing two runs: summaries, splits and the time gap along a shared route")
struct CompareTests {
    static func compare(_ fixture: HistoryFixture, _ a: String, _ b: String, units: UnitSystem = .metric) async throws
        -> RunComparison
    {
        let split = ProgressSettings(units: units).split
        return try await fixture.store.database.read { db in
            try RunComparison.make(a, b, unit: split.unit, unitDistance: split.distance, in: db)
        }
    }

    @Test("the gap along the route and the split deltas are within 1 s of the truth for a loop run at three speeds")
    func gapMatchesTheTruth() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let runs = [3.0, 3.3, 3.6].enumerated().map { index, speed in
            Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(60 + index))
        }
        for run in runs { try fixture.insert(run) }
        for (a, b) in [(0, 1), (0, 2), (2, 1)] {
            let comparison = try await Self.compare(fixture, runs[a].id, runs[b].id)
            #expect(comparison.sameRoute)
            let gap = try #require(comparison.gap)
            #expect(gap.count >= 39, "a 4 km loop has a mark every 100 m")
            #expect(gap.first?.distance == 0 && abs(gap.first?.delta ?? 9) < 1, "both started at the path's start")
            // The truth at each mark: where the mark lies on the course, and when each runner really passed there.
            let samplesA = try await fixture.store.database.read { db in
                TrackSamples(points: try RunPoints.load(db, runID: runs[a].id), start: comparison.a.startedAt)
            }
            let shared = try #require(SharedRoute(samplesA, samplesA))
            func truth(_ mark: Double, _ run: CourseRun) throws -> Double {
                let place = try #require(shared.path.coordinate(at: mark))
                let onCourse = try #require(Courses.loop.path.nearest(place, within: (mark - 100)...(mark + 100)))
                return try #require(run.time(at: onCourse.along))
            }
            var worst = 0.0
            for point in gap {
                let expected = try truth(point.distance, runs[b]) - truth(point.distance, runs[a])
                worst = max(worst, abs(point.delta - expected))
            }
            #expect(worst < 1, "the gap of \(runs[b].id) on \(runs[a].id) is off the truth by up to \(worst) s")
            // B is slower than A when its speed is lower: the gap grows along the route.
            let last = try #require(gap.last)
            #expect((last.delta > 0) == (b < a))

            #expect(comparison.unit == "km" && comparison.splitsBy == "route")
            #expect(comparison.splits.count == Int(shared.path.length / 1000), "every full kilometre of A's path")
            for split in comparison.splits {
                let truthA = try truth(split.distance, runs[a]) - truth(split.distance - 1000, runs[a])
                let truthB = try truth(split.distance, runs[b]) - truth(split.distance - 1000, runs[b])
                let timeA = try #require(split.a), timeB = try #require(split.b), delta = try #require(split.delta)
                #expect(
                    abs(delta - (truthB - truthA)) < 1, "split \(split.index): \(delta) s, truth \(truthB - truthA) s")
                #expect(
                    abs(timeA - truthA) < 1 && abs(timeB - truthB) < 1,
                    "split \(split.index): \(timeA), \(timeB) s; truth \(truthA), \(truthB) s")
            }
            #expect(comparison.differences.elapsedTime == comparison.b.elapsedTime - comparison.a.elapsedTime)
        }
    }

    @Test("runs on different routes have no gap; mile splits follow the units; unknown and deleted runs are errors")
    func differentRoutes() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Courses.run("loop", day: 0, speed: 3.2, seed: 70))
        try fixture.insert(Courses.run("back", on: Courses.reversed, day: 1, speed: 3.2, seed: 71))
        let comparison = try await Self.compare(fixture, "loop", "back", units: .imperial)
        #expect(!comparison.sameRoute && comparison.gap == nil && comparison.routeID == nil)
        #expect(comparison.unit == "mile" && comparison.splitsBy == "distance" && comparison.splits.count == 2)
        #expect(comparison.splits.allSatisfy { $0.distance == Double($0.index) * UnitSystem.metresPerMile })
        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(comparison)) as? [String: Any])
        #expect(
            Set(json.keys) == ["a", "b", "differences", "unit", "splits_by", "splits", "same_route", "route_id", "gap"])
        #expect(json["gap"] is NSNull && json["route_id"] is NSNull)

        await #expect(throws: RunHistoryError.notFound(runID: "nope")) {
            try await Self.compare(fixture, "loop", "nope")
        }
        _ = try await fixture.history.delete(ids: ["back"])
        await #expect(throws: RunHistoryError.deleted(runID: "back")) {
            try await Self.compare(fixture, "loop", "back")
        }
    }
}
