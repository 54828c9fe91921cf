import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("History: listing, search, edits, deletion with undo")
struct HistoryTests {
    static func fixtureWithRuns(_ count: Int) throws -> HistoryFixture {
        let fixture = try HistoryFixture()
        for day in 0..<count {
            try fixture.insert(
                Fixtures.run(
                    "run-\(day)", day: day, name: day % 2 == 0 ? "Morning 50%_Loop \(day)" : "Evening \(day)",
                    duration: 300, seed: UInt64(day + 1)))
        }
        return fixture
    }

    @Test("pages are newest first, disjoint and complete; the last page has no cursor")
    func pagination() async throws {
        let fixture = try Self.fixtureWithRuns(7)
        defer { fixture.remove() }
        var seen: [String] = []
        var cursor: RunCursor?
        var pages = 0
        repeat {
            let page = try await fixture.history.list(RunListQuery(limit: 3, cursor: cursor))
            seen += page.runs.map(\.run.id)
            cursor = try page.nextCursor.map { text throws(RunHistoryError) in try RunCursor(token: text) }
            pages += 1
        } while cursor != nil
        #expect(pages == 3)
        #expect(seen == (0..<7).reversed().map { "run-\($0)" })
        #expect(throws: RunHistoryError.self) { try RunCursor(token: "not a cursor!") }
    }

    @Test("search by name (case-insensitive, % and _ literal) and by date range (a bare 'to' date includes the day)")
    func search() async throws {
        let fixture = try Self.fixtureWithRuns(6)
        defer { fixture.remove() }
        #expect(
            try await fixture.history.list(RunListQuery(name: "evening")).runs.map(\.run.id) == [
                "run-5", "run-3", "run-1"
            ])
        #expect(try await fixture.history.list(RunListQuery(name: "50%_l")).runs.count == 3)
        #expect(try await fixture.history.list(RunListQuery(name: "50%x")).runs.isEmpty)
        let from = try RunListQuery.parseBound("2024-05-02", field: "from", isUpperBound: false)
        let to = try RunListQuery.parseBound("2024-05-04", field: "to", isUpperBound: true)
        #expect(
            try await fixture.history.list(RunListQuery(from: from, to: to)).runs.map(\.run.id) == [
                "run-3", "run-2", "run-1"
            ])
        #expect(throws: RunHistoryError.self) {
            try RunListQuery.parseBound("May 2", field: "from", isUpperBound: false)
        }
    }

    @Test("edits change name and notes only, and every change is logged with old and new value")
    func edits() async throws {
        let fixture = try Self.fixtureWithRuns(1)
        defer { fixture.remove() }
        let before = try await fixture.history.summary(id: "run-0")
        let t1 = Fixtures.day0.addingTimeInterval(100), t2 = Fixtures.day0.addingTimeInterval(200)
        try await fixture.history.edit(id: "run-0", RunEdit(name: "  Park loop  ", notes: "legs heavy"), now: t1)
        let after = try await fixture.history.edit(id: "run-0", RunEdit(name: "Park loop", notes: "legs fine"), now: t2)
        #expect(after.name == "Park loop" && after.notes == "legs fine")
        #expect(after.distance == before.distance && after.elapsedTime == before.elapsedTime)
        let log = try await fixture.history.edits(id: "run-0")
        #expect(log.map(\.field) == ["name", "notes", "notes"])
        #expect(log[0].oldValue == "Morning 50%_Loop 0" && log[0].newValue == "Park loop" && log[0].editedAt == t1)
        #expect(log[2].oldValue == "legs heavy" && log[2].newValue == "legs fine" && log[2].editedAt == t2)

        #expect(throws: RunHistoryError.self) { try RunEdit(fields: ["name": "x", "distance_m": "1"]) }
        await #expect(throws: RunHistoryError.invalid(field: "name", message: "must not be empty")) {
            try await fixture.history.edit(id: "run-0", RunEdit(name: "   "))
        }
        await #expect(throws: RunHistoryError.notFound(runID: "nope")) {
            try await fixture.history.edit(id: "nope", RunEdit(name: "x"))
        }
    }

    @Test("delete many at once, list the trash, restore, and purge after 30 days; active runs cannot be deleted")
    func deleteRestorePurge() async throws {
        let fixture = try Self.fixtureWithRuns(4)
        defer { fixture.remove() }
        let now = Fixtures.day0.addingTimeInterval(30 * 86_400)
        let receipt = try await fixture.history.delete(ids: ["run-1", "run-2"], now: now)
        #expect(receipt.purgeAt == now.addingTimeInterval(30 * 86_400))
        #expect(try await fixture.history.list(RunListQuery()).runs.map(\.run.id) == ["run-3", "run-0"])
        let trash = try await fixture.history.list(RunListQuery(deleted: true), now: now)
        #expect(trash.runs.map(\.run.id) == ["run-2", "run-1"] && trash.runs.allSatisfy { $0.deletedAt == now })
        await #expect(throws: RunHistoryError.deleted(runID: "run-1")) { try await fixture.history.detail(id: "run-1") }
        await #expect(throws: RunHistoryError.notFound(runID: "zzz")) {
            try await fixture.history.delete(ids: ["run-3", "zzz"])
        }
        #expect(try await fixture.history.list(RunListQuery()).runs.count == 2)  // all or nothing: run-3 kept

        _ = try await fixture.history.restore(ids: ["run-1"], now: now.addingTimeInterval(86_400))
        await #expect(throws: RunHistoryError.notDeleted(runID: "run-3")) {
            try await fixture.history.restore(ids: ["run-3"])
        }

        let later = now.addingTimeInterval(30 * 86_400 + 1)
        #expect(try await fixture.history.list(RunListQuery(deleted: true), now: later).runs.isEmpty)
        await #expect(throws: RunHistoryError.notFound(runID: "run-2")) {
            try await fixture.history.restore(ids: ["run-2"], now: later)
        }
        #expect(try await fixture.history.purgeExpired(now: later) == 1)
        let remaining = try await fixture.store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM run_points WHERE run_id = 'run-2'")
        }
        #expect(remaining == 0)

        try await fixture.store.database.write { db in
            try db.execute(sql: "UPDATE runs SET state = 'tracking' WHERE id = 'run-0'")
        }
        await #expect(throws: RunHistoryError.active(runID: "run-0")) {
            try await fixture.history.delete(ids: ["run-0"])
        }
    }
}
