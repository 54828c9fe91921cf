import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Segments: efforts found, timed at the crossings and ranked")
struct SegmentTests {
    static func add(_ fixture: HistoryFixture, _ request: SegmentRequest) async throws -> Segment {
        try await fixture.store.database.write { db in try SegmentBook.add(request, in: db) }
    }

    static func efforts(_ fixture: HistoryFixture, _ key: String) async throws -> SegmentEfforts {
        try await fixture.store.database.read { db in try SegmentBook.efforts(key, in: db) }
    }

    /// How long `run` really took between where the segment starts and ends on the course.
    static func truth(_ segment: Segment, _ run: CourseRun, near: ClosedRange<Double>) throws -> Double {
        let (startPoint, finishPoint) = (try #require(segment.start), try #require(segment.finish))
        let start = try #require(Courses.loop.path.nearest(startPoint, within: near))
        let end = try #require(
            Courses.loop.path.nearest(finishPoint, within: (start.along + 100)...Courses.loop.path.length))
        let (startTime, endTime) = (try #require(run.time(at: start.along)), try #require(run.time(at: end.along)))
        return endTime - startTime
    }

    /// When `run` really passed the segment's start.
    static func startTruth(_ segment: Segment, _ run: CourseRun) throws -> Double {
        let startPoint = try #require(segment.start)
        let start = try #require(Courses.loop.path.nearest(startPoint, within: 100...300))
        return try #require(run.time(at: start.along))
    }

    @Test(
        "a segment of the loop gets an effort from every run of the loop, within 1 s of the truth and ranked by it; other runs get none"
    )
    func effortsAreTimedAndRanked() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let runs = [3.0, 3.6, 3.3].enumerated().map { index, speed in
            Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(80 + index))
        }
        for run in runs { try fixture.insert(run) }
        try fixture.insert(Courses.run("reversed", on: Courses.reversed, day: 3, speed: 3.4, seed: 90))
        // The other loop runs the first 600 m of the segment's edge, then turns away.
        try fixture.insert(Courses.run("other", on: Courses.other, day: 4, speed: 3.4, seed: 91))

        // 200 m to 1.7 km of the first run: up the loop's west side and round its first corner.
        let segment = try await Self.add(
            fixture, SegmentRequest(name: "Corner", runID: "loop-0", bounds: .kilometres(from: 0.2, to: 1.7)))
        #expect(abs(segment.distance - 1500) < 30)
        #expect(segment.activity == .run && segment.sourceRunID == "loop-0")
        let report = try await Self.efforts(fixture, "Corner")
        #expect(report.efforts.map(\.runID) == ["loop-1", "loop-2", "loop-0"], "fastest first")
        #expect(report.efforts.map(\.rank) == [1, 2, 3])
        for effort in report.efforts {
            let run = try #require(runs.first { $0.id == effort.runID })
            let truth = try Self.truth(segment, run, near: 100...300)
            #expect(abs(effort.elapsedTime - truth) < 1, "\(effort.runID): \(effort.elapsedTime) s, truth \(truth) s")
            #expect(abs(effort.startOffset - (try Self.startTruth(segment, run))) < 1)
            let day = Double(runs.firstIndex { $0.id == effort.runID } ?? 0)
            #expect(
                abs(effort.startedAt.timeIntervalSince(Fixtures.day0) - (day * 86_400 + effort.startOffset)) < 0.001)
        }
        #expect(segment.effortCount == 3 && segment.best?.runID == "loop-1")

        // A run saved later gets its effort when it is stored.
        let late = Courses.run("loop-late", day: 9, speed: 4.0, seed: 95)
        try fixture.insert(late)
        let after = try await Self.efforts(fixture, String(segment.id))
        #expect(after.efforts.first?.runID == "loop-late" && after.efforts.count == 4)
        let lateTruth = try Self.truth(segment, late, near: 100...300)
        #expect(abs((after.efforts.first?.elapsedTime ?? 0) - lateTruth) < 1)

        // Deleting hides the run's effort, restoring shows it again.
        _ = try await fixture.history.delete(ids: ["loop-late"])
        #expect(try await Self.efforts(fixture, "Corner").efforts.count == 3)
        _ = try await fixture.history.restore(ids: ["loop-late"])
        #expect(try await Self.efforts(fixture, "Corner").efforts.count == 4)
    }

    @Test("a segment given by two points near the run follows the run between them; laps give one effort each")
    func pointsAndLaps() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let twice = SyntheticCourse(Courses.loop.path.vertices + Courses.loop.path.vertices.dropFirst())
        let run = twice.run(id: "laps", name: "Two laps", startedAt: Fixtures.day0, jitter: 1.5, seed: 5) { _ in 3.3 }
        try fixture.insert(run)
        let corner = try #require(Courses.loop.path.coordinate(at: 1200))
        let from = try #require(Courses.loop.path.coordinate(at: 900)),
            to = try #require(Courses.loop.path.coordinate(at: 1500))
        let segment = try await Self.add(
            fixture, SegmentRequest(name: "Top corner", runID: "laps", bounds: .points(from: from, to: to)))
        #expect(abs(segment.distance - 600) < 30)
        #expect(segment.path.contains { Geodesic.wgs84.distance($0, corner) < 10 }, "the path keeps the corner")
        let efforts = try await Self.efforts(fixture, "Top corner").efforts
        #expect(efforts.count == 2)
        let byStart = efforts.sorted { $0.startOffset < $1.startOffset }
        #expect(abs(byStart[1].startOffset - byStart[0].startOffset - Courses.loop.path.length / 3.3) < 2)
    }

    @Test("bad requests are refused with a clear message and store nothing")
    func badRequests() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Courses.run("loop", day: 0, speed: 3.3, seed: 100))
        try await Self.add(fixture, SegmentRequest(name: "Taken", runID: "loop", bounds: .kilometres(from: 0, to: 1)))
        let cases: [(SegmentRequest, String)] = [
            (
                SegmentRequest(name: "Far", runID: "loop", bounds: .kilometres(from: 1, to: 12)),
                "beyond the end of run 'loop'"
            ),
            (SegmentRequest(name: "Short", runID: "loop", bounds: .kilometres(from: 1, to: 1.05)), "at least 100 m"),
            (
                SegmentRequest(name: "Backwards", runID: "loop", bounds: .kilometres(from: 2, to: 1)),
                "must be beyond the start"
            ),
            (SegmentRequest(name: "Negative", runID: "loop", bounds: .kilometres(from: -1, to: 1)), "at least 0 km"),
            (SegmentRequest(name: "  ", runID: "loop", bounds: .kilometres(from: 0, to: 1)), "1 to 200 characters"),
            (SegmentRequest(name: "Taken", runID: "loop", bounds: .kilometres(from: 1, to: 2)), "exists already"),
            (
                SegmentRequest(
                    name: "Nowhere", runID: "loop",
                    bounds: .points(
                        from: try Coordinate(latitude: 48.2, longitude: 11.6),
                        to: try Coordinate(latitude: 48.21, longitude: 11.6))), "from the path of run 'loop'"
            )
        ]
        for (request, message) in cases {
            do {
                _ = try await Self.add(fixture, request)
                Issue.record("\(request.name) was accepted")
            } catch let error as ProgressError {
                #expect(error.description.contains(message), "\(error)")
            }
        }
        await #expect(throws: RunHistoryError.notFound(runID: "ghost")) {
            try await Self.add(
                fixture, SegmentRequest(name: "Ghost", runID: "ghost", bounds: .kilometres(from: 0, to: 1)))
        }
        let count = try await fixture.store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM segments")
        }
        #expect(count == 1)
        await #expect(throws: ProgressError.segmentNotFound(id: "Nope")) { try await Self.efforts(fixture, "Nope") }

        let deleted = try await fixture.store.database.write { db in try SegmentBook.delete("Taken", in: db) }
        #expect(deleted.name == "Taken")
        let left = try await fixture.store.database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM segments"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM segment_efforts")
            )
        }
        #expect(left.0 == 0 && left.1 == 0)
    }
}
