import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Records per activity, and how each record progressed")
struct RecordsPerActivityTests {
    /// `laps` laps of the 4 km loop by bike (three are 12 km, enough for a 10 km record).
    static func ride(_ id: String, day: Int, speed: Double, seed: UInt64, laps: Int = 3) -> CourseRun {
        let lap = Courses.loop.path.vertices
        let course = SyntheticCourse(lap + (1..<laps).flatMap { _ in lap.dropFirst() })
        return course.run(
            id: id, name: "Ride \(id)", activity: .ride,
            startedAt: Fixtures.day0.addingTimeInterval(Double(day) * 86_400),
            jitter: 1.5, seed: seed
        ) { _ in speed }
    }

    @Test("rides set ride records (longest and fastest 10 km), never running ones; hikes keep the longest")
    func ridesAndHikes() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("run", day: 0, duration: 1200, pace: 330))
        let set = try #require(try fixture.insert(Self.ride("ride", day: 1, speed: 8, seed: 3))).records
        #expect(Set(set.map(\.distance)) == [.tenKilometres, .longest])
        #expect(set.allSatisfy { $0.activity == .ride })
        let hike = try #require(try fixture.insert(Courses.run("hike", day: 2, speed: 1.2, seed: 4, activity: .hike)))
            .records
        #expect(hike.map(\.distance) == [.longest] && hike.first?.activity == .hike)

        let report = try await fixture.history.records()
        #expect(report.records.filter { $0.activity == .run }.map(\.runID).allSatisfy { $0 == "run" })
        #expect(report.records.filter { $0.activity == .run }.map(\.distance) == [.oneKilometre, .mile])
        let rideRecords = report.records.filter { $0.activity == .ride }
        #expect(rideRecords.map(\.distance) == [.tenKilometres, .longest])
        let longest = try #require(rideRecords.last)
        let stored = try await fixture.history.summary(id: "ride")
        #expect(
            abs(longest.distanceMetres - stored.distance) < 1e-6
                && abs(longest.pace - longest.elapsedTime / stored.distance * 1000) < 1e-9)
        let tenK = try #require(rideRecords.first)
        #expect(abs(tenK.elapsedTime - 10_000 / 8) < 15, "ten kilometres at 8 m/s")

        // A faster, longer ride beats both; the history says what it beat.
        let better = try #require(try fixture.insert(Self.ride("faster", day: 3, speed: 9, seed: 5, laps: 4))).records
        let newLongest = try #require(better.first { $0.distance == .longest })
        #expect(newLongest.previousDistanceMetres == stored.distance && newLongest.previousElapsedTime == nil)
        let newTen = try #require(better.first { $0.distance == .tenKilometres })
        #expect(newTen.previousElapsedTime == tenK.elapsedTime)

        #expect(try await fixture.history.records(activity: .ride).records.count == 2)
        #expect(try await fixture.history.records(distance: .longest).records.map(\.activity) == [.hike, .ride])
    }

    @Test(
        "the progression lists, per record, when it was set and by how much it improved, in the order the runs were run"
    )
    func progression() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        // Saved out of order: day 2 (slow), day 0 (medium), day 3 (fastest), day 1 (slowest of all).
        for (id, day, pace) in [("c", 2, 360.0), ("a", 0, 330.0), ("d", 3, 300.0), ("b", 1, 400.0)] {
            try fixture.insert(Fixtures.run(id, day: day, duration: 1200, pace: pace, seed: UInt64(day + 1)))
        }
        let report = try await fixture.history.records(distance: .oneKilometre)
        let progression = try #require(report.progression.first)
        #expect(report.progression.count == 1 && progression.activity == .run && progression.distance == .oneKilometre)
        #expect(progression.steps.map(\.runID) == ["a", "d"], "c and b never beat a; d did")
        #expect(progression.steps.first?.improvementSeconds == nil)
        let steps = progression.steps
        #expect(abs((steps.last?.improvementSeconds ?? 0) - (steps[0].elapsedTime - steps[1].elapsedTime)) < 1e-9)
        #expect(steps[1].achievedAt > steps[0].achievedAt)

        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(report)) as? [String: Any])
        #expect(Set(json.keys) == ["records", "history", "progression"])
        let step = try #require(((json["progression"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first)
        #expect(
            Set(step.keys) == [
                "achieved_at", "run_id", "run_name", "elapsed_s", "distance_m", "improvement_s", "improvement_m"
            ])
        let record = try #require((json["records"] as? [[String: Any]])?.first)
        #expect(record["activity"] as? String == "run" && record["previous_distance_m"] is NSNull)
    }
}
