import Foundation
import GRDB
import MeridianCore

/// The webhooks' durable outbox: each event a hook takes is a row of `hooks_events` with one row of
/// `hooks_deliveries` per hook that takes it, until that hook's receiver has it. A writer whose change causes an
/// event appends it with `append` inside its own transaction, so the change and its event are stored together or
/// not at all; it then publishes the event on the bus with `journaled: true`.
public enum EventOutbox {
    /// Appends the event `name` with its JSON `payload` for every hook that takes it, inside the caller's
    /// transaction. Returns the event's id (sent as `X-Meridian-Event-Id`), or nil when no hook takes it.
    @discardableResult
    public static func append<Payload: Encodable>(_ name: String, _ payload: Payload, in db: Database) throws
        -> String?
    {
        try append(name, json: MeridianJSON.string(payload), in: db)
    }

    /// `append(_:_:in:)` with an already encoded payload, at `time` (now by default), for `hooks` when given (else
    /// for every stored hook that takes it).
    @discardableResult
    public static func append(
        _ name: String, json: String, in db: Database, at time: Date = Date(), for hooks: [HookSpec]? = nil
    ) throws -> String? {
        let hooks = try hooks ?? HookTable.specs(db).filter { $0.accepts(name, json: json) }
        guard !hooks.isEmpty else { return nil }
        let id = UUID().uuidString.lowercased()
        try db.execute(
            sql: "INSERT INTO hooks_events (id, type, time, body) VALUES (?, ?, ?, ?)",
            arguments: [id, name, time.timeIntervalSince1970, json])
        let sequence = db.lastInsertedRowID
        for hook in hooks {
            try db.execute(
                sql: "INSERT INTO hooks_deliveries (hook_id, event_seq, since) VALUES (?, ?, ?)",
                arguments: [hook.id, sequence, time.timeIntervalSince1970])
        }
        return id
    }

    /// The tables (the store's migration `hooks`).
    static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE hooks (
                    id TEXT NOT NULL PRIMARY KEY, spec TEXT NOT NULL, source TEXT NOT NULL, created_at REAL NOT NULL);
                CREATE TABLE hooks_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
                    time REAL NOT NULL, body TEXT NOT NULL);
                CREATE TABLE hooks_deliveries (
                    hook_id TEXT NOT NULL, event_seq INTEGER NOT NULL, since REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0, next_attempt REAL NOT NULL DEFAULT 0, last_error TEXT,
                    dead_at REAL, PRIMARY KEY (hook_id, event_seq)) WITHOUT ROWID;
                CREATE INDEX hooks_deliveries_event ON hooks_deliveries (event_seq);
                """)
    }
}
