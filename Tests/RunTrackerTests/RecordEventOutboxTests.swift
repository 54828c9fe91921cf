import Foundation
import GRDB
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// A run's new records and their `record.new` events for the webhooks are stored in one transaction: both or neither.
struct RecordEventOutboxTests {
    static let file = "fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx"
    static let hook = HookSpec(
        id: "records", url: "http://127.0.0.1:9/records", events: ["record.new"], secret: "0123456789abcdef")

    @Test func anImportedRunsRecordsAreInTheOutboxWithIt() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.store.database.write { db in try HookTable.add(Self.hook, in: db) }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let outcomes = try importer.importFile(try Data(contentsOf: TestData.url(Self.file)), file: Self.file)
        guard case .imported(let run)? = outcomes.first else {
            Issue.record("not imported: \(outcomes)")
            return
        }
        #expect(!run.records.isEmpty)
        let bodies = try fixture.store.database.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM hooks_events WHERE type = 'record.new' ORDER BY seq")
        }
        #expect(bodies.count == run.records.count)
        #expect(bodies.allSatisfy { $0.contains(run.summary.id) })
    }

    @Test func anOutboxThatCannotBeWrittenFailsTheImportAsAWhole() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.store.database.write { db in
            try HookTable.add(Self.hook, in: db)
            try db.execute(sql: "DROP TABLE hooks_events")
        }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        #expect(throws: (any Error).self) {
            try importer.importFile(try Data(contentsOf: TestData.url(Self.file)), file: Self.file)
        }
        let runs = try fixture.store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") }
        #expect(runs == 0)
    }
}
