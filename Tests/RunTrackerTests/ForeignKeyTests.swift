import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("Storage: foreign keys")
struct ForeignKeyTests {
    static let dependents = ["run_points", "run_progress", "run_best_efforts", "run_edits"]

    static func rows(of runID: String, in fixture: HistoryFixture) throws -> [String: Int] {
        try fixture.store.database.read { db in
            try Dictionary(
                uniqueKeysWithValues: dependents.map { table in
                    (
                        table,
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE run_id = ?", arguments: [runID])
                            ?? -1
                    )
                })
        }
    }

    @Test("every connection of the store enforces foreign keys, so a purge removes a run's dependent rows")
    func purgeCascades() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("old", day: 0))
        try fixture.insert(Fixtures.run("kept", day: 1, seed: 2))
        try await fixture.history.edit(id: "old", RunEdit(name: "Renamed"))
        #expect(try await fixture.store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)
        #expect(try await fixture.store.database.write { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)
        #expect(try Self.rows(of: "old", in: fixture).values.allSatisfy { $0 > 0 })

        let now = Date()
        _ = try await fixture.history.delete(ids: ["old"], now: now)
        #expect(
            try await fixture.history.purgeExpired(now: now.addingTimeInterval(RunHistory.defaultRetention + 1)) == 1)
        #expect(try Self.rows(of: "old", in: fixture).values.allSatisfy { $0 == 0 })
        #expect(try Self.rows(of: "kept", in: fixture)["run_points"] ?? 0 > 0)
        // the record history outlives the run
        #expect(try await fixture.history.records().history.contains { $0.runID == "old" && $0.runDeleted == true })
    }
}
