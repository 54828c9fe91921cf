import Foundation
import GRDB
import Testing

@testable import RunTracker

/// Splits count the timer, not the pauses: a kilometre with a 10-minute stop in it is still a 5:30 kilometre.
@Suite("splits leave pauses out")
struct SplitPauseTests {
    @Test(
        "a pause inside a kilometre: its split's elapsed time includes the pause, its timer time and pace do not; the pauses survive storage"
    )
    func pauseInsideASplit() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        // 5:30 per km for 20 minutes of running, with a 10-minute pause 200 s in (inside the first kilometre).
        try fixture.insert(
            Fixtures.run("paused", day: 0, duration: 1_800, pace: 330, pauses: [(offset: 200, length: 600)]))
        let stored = try await fixture.store.database.read { db in
            try ProgressStore.load(runID: "paused", start: Fixtures.day0, in: db)
        }
        #expect(stored.pauses.count == 1)
        let pause = try #require(stored.pauses.first)
        #expect(abs(pause.upperBound - pause.lowerBound - 600) < 3, "\(pause)")

        let table = stored.splits(every: 1000, unit: "km")
        let full = table.splits.filter { !$0.partial }
        #expect(full.count >= 3)
        let first = try #require(full.first)
        #expect(abs(first.elapsedTime - first.timerTime - 600) < 3, "\(first)")
        for split in full {
            #expect(abs(split.timerTime - 330) < 20, "split \(split.index): \(split.timerTime) s of timer")
            #expect(abs(split.pace - 330) < 20, "split \(split.index): pace \(split.pace)")
        }

        // The same pause read from the points (a run saved before pauses were stored) gives the same splits.
        let rebuilt = try await fixture.store.database.read { db in
            try ProgressStore.build(runID: "paused", start: Fixtures.day0, in: db)
        }
        #expect(rebuilt.pauses == stored.pauses)
        #expect(rebuilt.splits(every: 1000, unit: "km") == table)
    }

    @Test(
        "packed pauses: a round trip is exact; a truncated or reversed blob is refused and the pauses are rebuilt from the points"
    )
    func packedPauses() async throws {
        var progress = RunProgress(times: [0, 10, 700, 710], distances: [0, 30, 30, 60], pauses: [10...700])
        let packed = progress.packedPauses
        var copy = RunProgress(times: progress.times, distances: progress.distances)
        let read = copy.unpackPauses(packed)
        #expect(read && copy == progress)
        let truncated = copy.unpackPauses(packed.dropLast())
        #expect(!truncated)
        var reversed = Data()
        for value in [700.0, 10.0] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { reversed.append(contentsOf: $0) }
        }
        let refused = progress.unpackPauses(reversed)
        #expect(!refused)
        #expect(progress.pausedTime(from: 0, to: 710) == 690)
        #expect(progress.pausedTime(from: 500, to: 705) == 200)
    }
}
