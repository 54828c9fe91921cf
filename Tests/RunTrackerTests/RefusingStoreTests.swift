import Foundation
import GRDB
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Synchronization
import Testing

@testable import RunTracker

/// The live run while its SpatiaLite file refuses writes (another connection holds the write lock): fixes never
/// wait for the store, the points wait in memory and are reported, and all of them are stored once it lets go.
@Suite struct RefusingStoreTests {
    /// A second connection to `path` holding the write lock (`BEGIN IMMEDIATE`) until `release()`.
    final class WriteLock: Sendable {
        private let queue: DatabaseQueue
        private let released = Atomic(false)

        init(_ path: String) throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the transaction stays open between the two accesses
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        }

        var isReleased: Bool { released.load(ordering: .relaxed) }

        func release() throws {
            guard !released.exchange(true, ordering: .relaxed) else { return }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        }
    }

    static func controller(
        _ path: String, busyTimeout: Double, clock: ManualClock,
        maxPendingPoints: Int = LiveRunController.defaultMaxPendingPoints
    ) throws -> LiveRunController {
        LiveRunController(
            runStore: try RunStore(store: try Store.open(path: path, busyTimeout: busyTimeout)),
            settings: TrackerSettings(),
            events: EventBus(), units: .metric, logger: Logger(label: "test"), clock: { clock.now() },
            maxPendingPoints: maxPendingPoints)
    }

    @Test func fixesAreTakenWhileAWriteWaitsForTheStore() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, busyTimeout: 30, clock: clock)
        let run = try await controller.start(name: nil, activity: .run)
        let lock = try WriteLock(folder.store.path)
        // Lets go after 20 s at the latest, so that a controller whose fixes wait for the store finishes the test (failing it).
        let fallback = Task {
            try await Task.sleep(for: .seconds(20))
            try lock.release()
        }
        defer { fallback.cancel() }
        var east = 0.0
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 12, from: &east)
        #expect(!lock.isReleased, "the fixes waited for the store's lock")
        try lock.release()
        try await controller.flush()
        let received = try #require(try await controller.activeStatus()).run.pointCount
        let stored = try await RunStore(store: folder.store).points(runID: run.run.id)
        #expect(received >= 10, "\(received) points")
        #expect(stored.map(\.sequence) == Array(0..<received))
    }

    @Test func pointsRefusedByABusyStoreWaitAreReportedAndAreAllWrittenLater() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, busyTimeout: 0.1, clock: clock)
        let run = try await controller.start(name: nil, activity: .run)
        var east = 0.0
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 3, from: &east)
        await controller.settle()
        #expect(try await controller.activeStatus()?.pendingWrites == nil)

        let lock = try WriteLock(folder.store.path)
        let lockedAt = clock.now()
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 12, from: &east)
        await controller.settle()
        await controller.flushLogging()  // refused: the lock is still held
        let status = try #require(try await controller.activeStatus())
        let pending = try #require(status.pendingWrites, "the status says writes are pending")
        #expect(pending.items >= 12 && pending.items <= status.run.pointCount, "\(pending)")
        #expect(pending.since >= lockedAt && pending.dropped == 0)
        #expect(pending.problem.contains("database is locked"), "\(pending.problem)")
        #expect(controller.pendingWrites.current == pending)

        try lock.release()
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 1, from: &east)
        await controller.flushLogging()
        let after = try #require(try await controller.activeStatus())
        #expect(after.pendingWrites == nil)
        #expect(controller.pendingWrites.current == nil)
        let stored = try await RunStore(store: folder.store).points(runID: run.run.id)
        #expect(after.run.pointCount >= 14, "\(after.run.pointCount) points")
        #expect(stored.map(\.sequence) == Array(0..<after.run.pointCount))
    }

    @Test func atMostMaxPendingPointsWaitAndTheOldestGo() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try Self.controller(folder.store.path, busyTimeout: 0, clock: clock, maxPendingPoints: 40)
        _ = try await controller.start(name: nil, activity: .run)
        let lock = try WriteLock(folder.store.path)
        defer { try? lock.release() }
        var east = 0.0
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 65, from: &east)
        await controller.settle()
        await controller.flushLogging()
        let pending = try #require(controller.pendingWrites.current)
        let received = try #require(try await controller.activeStatus()).run.pointCount
        #expect(pending.items == 40)
        #expect(pending.dropped == received - 40, "\(received) points")
    }
}
