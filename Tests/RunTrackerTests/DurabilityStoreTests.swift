import Foundation
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Synchronization
import Testing

@testable import RunTracker

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current = Mutex(SyntheticTrack.start)
    func now() -> Date { current.withLock { $0 } }
    func advance(_ seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The live controller against a real SpatiaLite file: restore after the process "dies" (the controller
/// is dropped without stopping and the file reopened), at most the last second lost, drafts.
@Suite struct DurabilityStoreTests {
    static func controller(_ path: String, clock: ManualClock, events: EventBus = EventBus()) throws
        -> LiveRunController
    {
        let store = try Store.open(path: path)
        return LiveRunController(
            runStore: try RunStore(store: store), settings: TrackerSettings(), events: events,
            units: .metric, logger: Logger(label: "test"), clock: { clock.now() })
    }

    /// One fix per `step` seconds running east at 3.5 m/s, stamped by the controller's clock.
    static func run(
        _ controller: LiveRunController, clock: ManualClock, seconds: Double, step: Double = 1, from east: inout Double
    ) async {
        var elapsed = 0.0
        while elapsed < seconds {
            clock.advance(step)
            elapsed += step
            east += 3.5 * step
            // A receiver with the right clock: each fix carries the time it is consumed at.
            let second = clock.now().timeIntervalSince(SyntheticTrack.start)
            await controller.consume(SyntheticTrack.fix(second: second, east: east, north: 0, speed: 3.5))
        }
    }

    @Test func anActiveRunIsRestoredAfterTheProcessDiesAndKeepsTracking() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let path = folder.store.path
        let clock = ManualClock()
        var east = 0.0
        let first = try Self.controller(path, clock: clock)
        let started = try await first.start(name: "Lunch run", activity: .run)
        await Self.run(first, clock: clock, seconds: 120, from: &east)
        let before = try #require(try await first.activeStatus())
        // No stop, no final flush: the controller is simply abandoned, as with kill -9 once the write in flight
        // (started beside the fixes, at most `flushInterval` old) has landed.
        await first.settle()

        clock.advance(5)
        let second = try Self.controller(path, clock: clock)
        let restored = try #require(try await second.activeStatus())
        #expect(restored.run.id == started.run.id)
        #expect(restored.run.state == .tracking)
        #expect(restored.run.distance >= before.run.distance - 3.5 * 1.5)
        #expect(restored.run.pointCount >= before.run.pointCount - 2)
        #expect(restored.run.elapsedTime == before.run.elapsedTime + 5)

        await Self.run(second, clock: clock, seconds: 120, from: &east)
        let result = try await second.stop(id: started.run.id)
        #expect(result.saved)
        #expect(result.run.segmentCount == 2)  // the downtime broke the segment: no distance invented across it
        let expected = 3.5 * 240
        #expect(result.run.distance <= expected && result.run.distance > expected - 30, "\(result.run.distance)")
        let points = try await RunStore(store: Store.open(path: path)).points(runID: started.run.id)
        #expect(points.count == result.run.pointCount)
        #expect(points.map(\.sequence) == Array(0..<points.count))
    }

    @Test func atMostTheLastSecondOfPointsIsUnwritten() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, clock: clock)
        let run = try await controller.start(name: nil, activity: .run)
        var east = 0.0
        // 10 Hz for 30 s, never flushed explicitly.
        await Self.run(controller, clock: clock, seconds: 30, step: 0.1, from: &east)
        await controller.settle()  // the write in flight, started beside the fixes, lands; nothing more is written
        let received = try #require(try await controller.activeStatus()).run.pointCount
        let stored = try await RunStore(store: Store.open(path: folder.store.path)).points(runID: run.run.id)
        let lastStored = try #require(stored.last).time
        #expect(clock.now().timeIntervalSince(lastStored) <= 1.0)
        #expect(received - stored.count <= 10, "\(received) received, \(stored.count) stored")
    }

    @Test func startIsIdempotentByIdAndRejectsASecondRun() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, clock: clock)
        let run = try await controller.start(name: "A", activity: .walk, id: "run-a")
        #expect(try await controller.start(name: "A", activity: .walk, id: "run-a").run.id == run.run.id)
        await #expect(throws: RunCommandError.anotherRunActive(id: "run-a", name: "A")) {
            _ = try await controller.start(name: "B", activity: .run)
        }
        await #expect(throws: RunCommandError.noSuchRun(id: "nope")) { _ = try await controller.pause(id: "nope") }
        clock.advance(1)
        #expect(try await controller.pause(id: "run-a").run.state == .paused)
        #expect(try await controller.pause(id: "run-a").run.state == .paused)
        #expect(try await controller.resume(id: "run-a").run.state == .tracking)
        #expect(try await controller.resume(id: "run-a").run.state == .tracking)
    }

    @Test func aShortRunIsKeptAsADraftThatCanBeDiscarded() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let events = EventBus()
        let subscription = events.subscribe()
        let controller = try Self.controller(folder.store.path, clock: clock, events: events)
        let run = try await controller.start(name: "Too short", activity: .run)
        var east = 0.0
        await Self.run(controller, clock: clock, seconds: 20, from: &east)
        let result = try await controller.stop(id: run.run.id)
        #expect(!result.saved)
        #expect(result.run.state == .draft)
        #expect(result.message.contains("too short"))
        #expect(try await controller.stop(id: run.run.id).run.state == .draft)  // idempotent
        #expect(try await controller.activeStatus() == nil)
        await #expect(throws: RunCommandError.notActive(id: run.run.id, state: .draft, command: "pause")) {
            _ = try await controller.pause(id: run.run.id)
        }
        try await controller.discard(id: run.run.id)
        #expect(try await RunStore(store: Store.open(path: folder.store.path)).summary(id: run.run.id) == nil)

        var names: [String] = []
        for await event in subscription {
            names.append(event.json)
            if names.count == 2 { break }
        }
        #expect(names[0].contains("\"reason\":\"started\""))
        #expect(names[1].contains("\"reason\":\"stopped\""))
    }

    @Test func aSavedRunHasNoLiveStateAndHistoryCanReadIt() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, clock: clock)
        let run = try await controller.start(name: "Long enough", activity: .run)
        var east = 0.0
        await Self.run(controller, clock: clock, seconds: 90, from: &east)
        let result = try await controller.stop(id: run.run.id)
        #expect(result.saved)
        let store = try Store.open(path: folder.store.path)
        let liveState = try await store.database.read { db in
            try String?.fetchOne(db, sql: "SELECT live_state FROM runs WHERE id = ?", arguments: [run.run.id]) ?? nil
        }
        #expect(liveState == nil)
        let fetched = try await store.database.read { db in try RunSummary.fetch(db, id: run.run.id) }
        #expect(fetched == result.run)
        #expect(try await RunStore(store: store).activeStates().isEmpty)
    }
}
