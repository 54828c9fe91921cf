import Foundation
import GRDB
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// A stopped live run is written and completed once: the half-second flush loop (`flushLogging`, as the plugin's
/// run loop calls it) leaves it alone afterwards, so `RunCompletion.didSave` is not repeated and a rename made
/// after the stop is not overwritten by the controller's copy.
@Suite struct StoppedRunWrittenOnceTests {
    /// Counts `RunCompletion.didSave` calls in the file: each stores the run's progress in `run_progress`.
    static func countSaves(_ store: Store) async throws {
        try await store.database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE test_saves (run_id TEXT NOT NULL);
                    CREATE TRIGGER test_count_saves AFTER INSERT ON run_progress BEGIN
                        INSERT INTO test_saves (run_id) VALUES (NEW.run_id);
                    END;
                    """)
        }
    }

    static func saves(_ store: Store, runID: String) async throws -> Int {
        try await store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM test_saves WHERE run_id = ?", arguments: [runID]) ?? 0
        }
    }

    /// What the plugin's run loop does for `seconds` after the stop.
    static func flushLoop(_ controller: LiveRunController, clock: ManualClock, seconds: Double) async {
        for _ in 0..<Int(seconds / LiveRunController.flushInterval) {
            clock.advance(LiveRunController.flushInterval)
            await controller.flushLogging()
        }
    }

    @Test("a saved run is completed once, and its rename after the stop stays")
    func savedRun() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock)
        let store = try Store.open(path: folder.store.path)
        try await Self.countSaves(store)
        let id = try await controller.start(name: "Lunch run", activity: .run).run.id
        var east = 0.0
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 120, from: &east)
        #expect(try await controller.stop(id: id).saved)
        let afterStop = try await Self.saves(store, runID: id)
        #expect(afterStop == 1, "\(afterStop) saves")

        await Self.flushLoop(controller, clock: clock, seconds: 3)
        _ = try await RunHistory(store: store).edit(id: id, RunEdit(name: "Renamed"))
        await Self.flushLoop(controller, clock: clock, seconds: 3)
        #expect(try await Self.saves(store, runID: id) == 1, "didSave ran again after the stop")
        #expect(try await RunStore(store: store).summary(id: id)?.name == "Renamed")
    }

    @Test("a draft is written once: its rename after the stop stays, and it still resumes")
    func draft() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock)
        let store = try Store.open(path: folder.store.path)
        let id = try await DraftResumeTests.shortRun(controller, clock: clock)
        _ = try await RunHistory(store: store).edit(id: id, RunEdit(notes: "windy"))
        await Self.flushLoop(controller, clock: clock, seconds: 3)
        #expect(try await RunStore(store: store).summary(id: id)?.notes == "windy")
        #expect(try await controller.resume(id: id).run.state == .tracking)
    }
}
