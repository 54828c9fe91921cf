import Foundation
import GRDB
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

/// The webhooks' outbox in a real SpatiaLite file: an event is stored with the write that caused it or not at all,
/// each hook's line keeps its order, and a delivery that fails past `max_age` moves to the dead-letter list.
struct EventOutboxTests {
    static let hook = HookSpec(
        id: "home", url: "http://127.0.0.1:9/hook", events: ["record.*"], secret: "0123456789abcdef", maxAge: 60)

    static func withStore(_ body: (Store) throws -> Void) throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        try temporary.store.database.write { db in try HookTable.add(hook, in: db) }
        try body(temporary.store)
    }

    struct Refused: Error {}

    @Test func anEventIsStoredWithItsWriteOrNotAtAll() throws {
        try Self.withStore { store in
            #expect(throws: Refused.self) {
                try store.database.write { db in
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (x)")
                    try EventOutbox.append("record.new", json: #"{"n":1}"#, in: db)
                    throw Refused()
                }
            }
            let (taken, untaken) = try store.database.write { db in
                (
                    try EventOutbox.append("record.new", json: #"{"n":2}"#, in: db),
                    try EventOutbox.append("fix", json: "{}", in: db)
                )
            }
            #expect(taken != nil && untaken == nil)
            let bodies = try store.database.read { db in try String.fetchAll(db, sql: "SELECT body FROM hooks_events") }
            #expect(bodies == [#"{"n":2}"#])
        }
    }

    @Test func deliveriesKeepOrderAndDeadLetterAfterMaxAge() throws {
        try Self.withStore { store in
            let start = Date(timeIntervalSince1970: 1_000_000)
            try store.database.write { db in
                for n in 0..<3 { try EventOutbox.append("record.new", json: #"{"n":\#(n)}"#, in: db, at: start) }
            }
            let line = try store.database.read { db in try HookDeliveries.pending(hookID: "home", limit: 10, in: db) }
            #expect(line.map(\.body) == [#"{"n":0}"#, #"{"n":1}"#, #"{"n":2}"#])
            let deadAt = try store.database.write { db in
                try HookDeliveries.delivered(hookID: "home", sequences: [line[0].sequence], in: db)
                return try [10.0, 60].map { seconds in
                    try HookDeliveries.failed(
                        line[1], hook: Self.hook, error: "HTTP 503", delay: 5, now: start + seconds, in: db)
                }
            }
            #expect(deadAt == [false, true])
            let (pending, dead) = try store.database.read { db in
                (
                    try HookDeliveries.pending(hookID: "home", limit: 10, in: db),
                    try HookDeliveries.deadLetters(in: db)
                )
            }
            #expect(pending.map(\.body) == [#"{"n":2}"#])
            #expect(dead.map(\.eventId) == [line[1].eventID])
            #expect(dead.first?.attempts == 2)
            let retried = try store.database.write { db in
                try HookDeliveries.retry(eventID: line[1].eventID, now: start + 100, in: db)
            }
            #expect(retried == 1)
            let again = try store.database.read { db in try HookDeliveries.pending(hookID: "home", limit: 10, in: db) }
            #expect(again.map(\.eventID) == [line[1].eventID, line[2].eventID])
            #expect(again.first?.since == start + 100)
            #expect(
                try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM hooks_events") } == 2)
        }
    }

    @Test func configuredHooksReplaceTheirEarlierSelvesAndAddedOnesStay() throws {
        try Self.withStore { store in
            let configured = HookSpec(url: "https://example.org/in", events: ["flyer.*"], secret: "abcdefghijklmnopq")
            try store.database.write { db in try HookTable.syncConfiguration([configured], in: db) }
            #expect(throws: HookTable.Refusal.inConfiguration(configured.id)) {
                try store.database.write { db in try HookTable.remove(configured.id, in: db) }
            }
            try store.database.write { db in try HookTable.syncConfiguration([], in: db) }
            let ids = try store.database.read { db in try HookTable.specs(db).map(\.id) }
            #expect(ids == ["home"])
        }
    }
}
