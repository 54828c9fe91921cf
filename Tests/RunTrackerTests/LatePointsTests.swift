import ActivityFiles
import Foundation
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// A phone's points keep their own time in a live run, and its offline queue, sent late, goes into its place: the run
/// ends as the same points imported from a file.
@Suite struct LatePointsTests {
    static let ridePath = "gpx/fitotrackfork__Workout-2023-08-20-13-48-44.gpx"
    static let phone = "phones/pixel"

    /// The shared 1 Hz ride as a phone's fixes.
    static func rideFixes() throws -> [Fix] {
        let activity = try #require(try ActivityFileReader.read(contentsOf: TestData.url(ridePath)).first)
        return activity.samples.map { $0.fix(providerID: phone) }
    }

    /// A live run over `fixes` fed by `deliver`, which gets the controller and a clock to set, then stopped at the
    /// last fix's time; with the same fixes imported from a file.
    static func liveAndImported(
        _ fixes: [Fix], deliver: (LiveRunController, LiveMatchesImportTests.FixClock) async throws -> Void
    ) async throws -> (live: RunSummary, imported: RunSummary, stored: [TrackPoint]) {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = LiveMatchesImportTests.FixClock()
        clock.set(fixes[0].time)
        let runStore = try RunStore(store: folder.store)
        let controller = LiveRunController(
            runStore: runStore, settings: TrackerSettings(), events: EventBus(), units: .metric,
            logger: Logger(label: "test"), clock: { clock.now() })
        let started = try await controller.start(name: "Ride", activity: .ride, id: "live")
        try await deliver(controller, clock)
        clock.set(fixes[fixes.count - 1].time)
        let live = try await controller.stop(id: started.run.id).run
        let recording = RecordedActivity(
            format: .gpx, startTime: fixes[0].time, samples: fixes.map(RecordedSample.init))
        let imported = try #require(
            RunImport.track(recording, id: "import", name: "Import", activity: .ride)
        ).summary
        return (live, imported, try await runStore.points(runID: "live"))
    }

    static func expectSameFigures(_ live: RunSummary, _ imported: RunSummary) {
        #expect(
            abs(live.distance - imported.distance) <= 0.005 * imported.distance,
            "live \(live.distance) m, import \(imported.distance) m")
        #expect(
            abs(live.movingTime - imported.movingTime) <= 0.01 * imported.movingTime,
            "live \(live.movingTime) s, import \(imported.movingTime) s")
        #expect(live.pointCount == imported.pointCount, "live \(live.pointCount), import \(imported.pointCount)")
        #expect(live.segmentCount == imported.segmentCount)
    }

    @Test("a 10-minute offline stretch of the shared 1 Hz ride, sent as one late batch, gives the import's figures")
    func offlineStretchSentLate() async throws {
        let fixes = try Self.rideFixes()
        let start = fixes[0].time
        let offline = { (fix: Fix) in (1200.0..<1800.0).contains(fix.time.timeIntervalSince(start)) }
        let (live, imported, stored) = try await Self.liveAndImported(fixes) { controller, clock in
            var queue = fixes.filter(offline)
            for fix in fixes where !offline(fix) {
                clock.set(fix.time.addingTimeInterval(1.5))  // each live point arrives a moment after it was taken
                await controller.consume(fix)
                if fix.time.timeIntervalSince(start) >= 2000, !queue.isEmpty {
                    await controller.backfill(queue)  // the queue, sent once the phone is back online
                    queue = []
                }
            }
        }
        Self.expectSameFigures(live, imported)
        #expect(stored.count == fixes.count)
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.time < $1.time && $0.sequence < $1.sequence })
    }

    @Test("points sent in batches a minute after they were taken keep their own time and spacing")
    func delayedBatchesKeepTheirTimes() async throws {
        let fixes = try Array(Self.rideFixes().prefix(1800))
        let (live, imported, _) = try await Self.liveAndImported(fixes) { controller, clock in
            for batch in stride(from: 0, to: fixes.count, by: 60) {
                let part = fixes[batch..<min(batch + 60, fixes.count)]
                clock.set(part[part.endIndex - 1].time.addingTimeInterval(5))
                for fix in part { await controller.consume(fix) }
            }
        }
        Self.expectSameFigures(live, imported)
        #expect(live.timerTime == imported.timerTime)
    }

    @Test("late fixes from a source the run never heard, and from before its start, stay out of it")
    func strangersAndEarlierFixesStayOut() async throws {
        let fixes = try Array(Self.rideFixes().prefix(600))
        let (live, imported, _) = try await Self.liveAndImported(fixes) { controller, clock in
            for fix in fixes {
                clock.set(fix.time)
                await controller.consume(fix)
            }
            var stranger = fixes[300]
            stranger.providerID = "phones/other"
            stranger.time.addTimeInterval(0.5)
            var early = fixes[0]
            early.time.addTimeInterval(-30)
            await controller.backfill([stranger, early])
        }
        #expect(live.pointCount == imported.pointCount)
        #expect(live.distance == imported.distance)
    }

    @Test("a replay for late points keeps the manual pause and the lap-button laps where they were")
    func pausesAndLapsSurviveTheReplay() async throws {
        let fixes = try Array(Self.rideFixes().prefix(1200))
        let start = fixes[0].time
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = LiveMatchesImportTests.FixClock()
        clock.set(start)
        let runStore = try RunStore(store: folder.store)
        let controller = LiveRunController(
            runStore: runStore, settings: TrackerSettings(), events: EventBus(), units: .metric,
            logger: Logger(label: "test"), clock: { clock.now() })
        _ = try await controller.start(name: "Ride", activity: .ride, id: "live")
        let withheld = fixes[100..<160]
        for (index, fix) in fixes.enumerated() where !withheld.contains(where: { $0.time == fix.time }) {
            clock.set(fix.time)
            if index == 400 { _ = try await controller.lap() }
            if index == 500 { _ = try await controller.pause(id: "live") }
            if index == 560 { _ = try await controller.resume(id: "live") }
            await controller.consume(fix)
        }
        let before = try #require(try await controller.activeStatus())
        await controller.backfill(Array(withheld))
        let after = try #require(try await controller.activeStatus())
        #expect(after.laps.count == before.laps.count && after.laps.count == 1)
        #expect(
            after.run.elapsedTime - after.run.timerTime >= 59,
            "the manual pause of 60 s is still there: elapsed \(after.run.elapsedTime) s, timer \(after.run.timerTime) s"
        )
        #expect(after.run.distance > before.run.distance)
        clock.set(fixes[fixes.count - 1].time)
        let saved = try await controller.stop(id: "live").run
        #expect(try await runStore.points(runID: "live").count == fixes.count)
        #expect(try await runStore.laps(runID: "live").count == 2)
        #expect(saved.pointCount == fixes.count)
    }

    /// A hang seen under load: a late batch waiting for another's read, or for a write that had just ended, looped on
    /// the controller; a waiter of higher priority always ran again before the read or write could finish.
    @Test(
        "late batches sent from tasks of mixed priorities while writes are in flight all go in; nothing waits for ever",
        .timeLimit(.minutes(1)))
    func lateBatchesDuringWrites() async throws {
        let fixes = try Array(Self.rideFixes().prefix(600))
        let (live, imported, stored) = try await Self.liveAndImported(fixes) { controller, clock in
            await withTaskGroup(of: Void.self) { group in
                // Every 20 s of the ride: the newest 10 fixes live (each makes a write due), the 10 before them late.
                for chunk in stride(from: 0, to: fixes.count, by: 20) {
                    for fix in fixes[chunk + 10..<chunk + 20] {
                        clock.set(fix.time.addingTimeInterval(20))
                        await controller.consume(fix)
                    }
                    for (index, fix) in fixes[chunk..<chunk + 10].enumerated() {  // one by one, as OwnTracks sends them
                        let priority: TaskPriority = index % 2 == 0 ? .low : .high
                        group.addTask(priority: priority) { await controller.backfill([fix]) }
                    }
                }
            }
        }
        Self.expectSameFigures(live, imported)
        #expect(stored.count == fixes.count)
    }
}
