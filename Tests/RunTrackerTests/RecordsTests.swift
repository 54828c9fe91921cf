import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Records: best efforts and personal records")
struct RecordsTests {
    /// O(n²) reference: every sample as start and as end, the other end interpolated.
    static func bruteForce(_ progress: RunProgress, _ target: Double) -> Double? {
        var best = Double.infinity
        let d = progress.distances, t = progress.times
        func time(at distance: Double, latest: Bool) -> Double? {
            // latest moment at `distance` (for a start) or earliest (for an end)
            if latest {
                for i in stride(from: d.count - 1, through: 0, by: -1) where d[i] <= distance {
                    if d[i] == distance || i == d.count - 1 { return t[i] }
                    return t[i] + (t[i + 1] - t[i]) * (distance - d[i]) / (d[i + 1] - d[i])
                }
                return nil
            }
            for j in 0..<d.count where d[j] >= distance {
                if d[j] == distance || j == 0 { return t[j] }
                return t[j - 1] + (t[j] - t[j - 1]) * (distance - d[j - 1]) / (d[j] - d[j - 1])
            }
            return nil
        }
        for i in 0..<d.count {
            if let end = time(at: d[i] + target, latest: false) { best = min(best, end - t[i]) }
            if d[i] >= target, let start = time(at: d[i] - target, latest: true) { best = min(best, t[i] - start) }
        }
        return best.isFinite ? best : nil
    }

    @Test("an import stores the points exactly as tracked, and the progress packed from memory equals one read back")
    func importedProgressMatchesTheStoredPoints() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let run = Fixtures.run("packed", day: 0, duration: 900, pauses: [(offset: 400, length: 30)])
        let imported = try #require(
            try RunStore(store: fixture.store).importRun(
                run.recording, id: run.id, name: run.name,
                activity: .run))
        let (stored, packed) = try await fixture.store.database.read { db in
            (
                try RunPoints.load(db, runID: "packed"),
                try ProgressStore.load(runID: "packed", start: imported.summary.startedAt, in: db)
            )
        }
        #expect(stored == RunImport.track(run.recording, id: run.id, name: run.name, activity: .run)?.points)
        #expect(packed == RunProgress(points: stored, start: imported.summary.startedAt))
        #expect(packed.count > 400)  // about every other fix: 3 m steps, 5 m sampling distance
    }

    @Test("the two-pointer sweep matches an O(n²) search on random runs with pauses")
    func sweepMatchesBruteForce() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<30 {
            var times: [Double] = [0], distances: [Double] = [0]
            for _ in 0..<800 {
                let pause = Double.random(in: 0..<1, using: &random) < 0.02
                times.append(
                    times.last!
                        + (pause
                            ? Double.random(in: 5..<120, using: &random) : Double.random(in: 0.5..<2, using: &random)))
                distances.append(distances.last! + (pause ? 0 : Double.random(in: 0..<9, using: &random)))
            }
            let progress = RunProgress(times: times, distances: distances)
            for distance in [RecordDistance.oneKilometre, .mile] {
                let effort = progress.bestEffort(over: distance)
                let expected = Self.bruteForce(progress, distance.metres)
                #expect(effort?.elapsedTime != nil)
                if let effort, let expected { #expect(abs(effort.elapsedTime - expected) < 1e-9) }
            }
        }
    }

    @Test("ends are interpolated: a fast kilometre inside a slow run is timed exactly")
    func interpolatedEnds() async throws {
        // 600 s at 2 m/s, then 250 s at 5 m/s (1250 m), then 600 s at 2 m/s; samples every 1 s except
        // every 7 s in the fast part, so no sample sits on the exact kilometre.
        var times: [Double] = [0], distances: [Double] = [0]
        func move(_ seconds: Int, _ speed: Double, step: Int) {
            var left = seconds
            while left > 0 {
                let dt = Double(min(step, left))
                times.append(times.last! + dt)
                distances.append(distances.last! + dt * speed)
                left -= min(step, left)
            }
        }
        move(600, 2, step: 1)
        move(250, 5, step: 7)
        move(600, 2, step: 1)
        let effort = try #require(RunProgress(times: times, distances: distances).bestEffort(over: .oneKilometre))
        #expect(abs(effort.elapsedTime - 200) < 1e-9)
        #expect(effort.startOffset >= 600 - 1e-9 && effort.startOffset <= 650 + 1e-9)
        #expect(RunProgress(times: times, distances: distances).bestEffort(over: .fiveKilometres) == nil)
    }

    @Test("a saved run sets records, a faster run beats them, and the history keeps both")
    func recordsAndHistory() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let first = try fixture.insert(Fixtures.run("a", day: 0, duration: 1200, pace: 360))
        #expect(Set(first.map(\.distance)) == [.oneKilometre, .mile])
        #expect(first.allSatisfy { $0.previousElapsedTime == nil && $0.runID == "a" })

        let slower = try fixture.insert(Fixtures.run("b", day: 1, duration: 1200, pace: 420, seed: 8))
        #expect(slower.isEmpty)
        let faster = try fixture.insert(Fixtures.run("c", day: 2, duration: 1200, pace: 300, seed: 9))
        #expect(Set(faster.map(\.distance)) == [.oneKilometre, .mile])
        let beaten = try #require(first.first { $0.distance == .oneKilometre })
        let newKm = try #require(faster.first { $0.distance == .oneKilometre })
        #expect(newKm.previousElapsedTime == beaten.elapsedTime)

        let report = try await fixture.history.records()
        #expect(report.records.map(\.runID) == ["c", "c"])
        #expect(report.history.count == 4)
        // the detail of run c flags the records it set
        #expect(try await fixture.history.detail(id: "c").newRecords.count == 2)
        // walking runs never set records
        #expect(try fixture.insert(Fixtures.run("w", day: 3, activity: .walk, duration: 1200, pace: 600)).isEmpty)
    }

    @Test("deleting the record run recomputes the current record; the history keeps it, marked deleted")
    func deletionRecomputes() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("slow", day: 0, duration: 1200, pace: 360))
        try fixture.insert(Fixtures.run("fast", day: 1, duration: 1200, pace: 300, seed: 3))
        let now = Fixtures.day0.addingTimeInterval(10 * 86_400)
        _ = try await fixture.history.delete(ids: ["fast"], now: now)

        var report = try await fixture.history.records()
        #expect(report.records.map(\.runID) == ["slow", "slow"])
        #expect(report.history.filter { $0.runID == "fast" }.allSatisfy { $0.runDeleted == true })
        #expect(report.history.filter { $0.runID == "slow" }.allSatisfy { $0.runDeleted == false })

        _ = try await fixture.history.restore(ids: ["fast"], now: now)
        #expect(try await fixture.history.records().records.map(\.runID) == ["fast", "fast"])

        // purged after 30 days: the history still holds its records
        _ = try await fixture.history.delete(ids: ["fast"], now: now)
        #expect(try await fixture.history.purgeExpired(now: now.addingTimeInterval(31 * 86_400)) == 1)
        report = try await fixture.history.records()
        #expect(report.records.map(\.runID) == ["slow", "slow"])
        #expect(report.history.filter { $0.runID == "fast" }.count == 2)
        #expect(report.history.filter { $0.runID == "fast" }.allSatisfy { $0.runDeleted == true })
    }

    @Test("rebuilding from the packed progress gives the records computed at save time")
    func rebuildMatchesSaveTime() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        for (index, pace) in [330.0, 300, 345, 310].enumerated() {
            try fixture.insert(
                Fixtures.run(
                    "r\(index)", day: index, duration: 2000, pace: pace,
                    pauses: [(offset: 700, length: 40)], seed: UInt64(index + 1)))
        }
        let before = try await fixture.history.records().records
        try await fixture.store.database.write { db in try db.execute(sql: "DELETE FROM run_best_efforts") }
        #expect(try await fixture.history.records().records.isEmpty)
        let rebuilt = try await fixture.history.rebuildRecords()
        #expect(rebuilt == before)
        #expect(rebuilt.map(\.distance) == [.oneKilometre, .mile, .fiveKilometres])
    }

    @Test("new records are published as record.new events")
    func publishesEvents() async throws {
        let events = EventBus()
        let stream = events.subscribe()
        let record = PersonalRecord(
            distance: .fiveKilometres, elapsedTime: 1500, runID: "x",
            achievedAt: Fixtures.day0, runName: "Morning")
        RunCompletion.publish([record], to: events)
        var iterator = stream.makeAsyncIterator()
        let event = try #require(await iterator.next())
        #expect(event.name == "record.new")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any])
        #expect(json["distance"] as? String == "5k")
        #expect(json["distance_m"] as? Double == 5000)
        #expect(json["elapsed_s"] as? Double == 1500)
        #expect(json["run_id"] as? String == "x")
        #expect(json["achieved_at"] as? String == "2024-05-01T08:00:00.000Z")
    }
}
