import Foundation
import GRDB
import MeridianCore

/// The configured webhooks, stored so that every process writing events (the service, `meridian runs import`)
/// appends them for the same hooks: those of `hooks:` in the configuration (source `config`, put in by
/// `meridian serve`) and those added with `meridian hooks add` or `POST /v1/hooks` (source `api`).
public enum HookTable {
    /// Where a hook was defined.
    public enum Source: String, Sendable, Codable {
        case config, api
    }

    /// A stored hook with its delivery state.
    public struct Entry: Sendable {
        public var spec: HookSpec
        public var source: Source
        /// Events waiting for delivery (retries included).
        public var pending: Int
        /// Events in the dead-letter list.
        public var failed: Int
        /// The last delivery error of the oldest waiting event.
        public var lastError: String?
    }

    /// A hook as lists show it (`meridian hooks list --json`, `GET /v1/hooks`): the secret masked.
    public struct Shown: Encodable, Sendable {
        public var id: String
        public var url: String
        public var events: [String]
        public var filter: HookFilter?
        /// The first characters and the length only.
        public var secret: String
        public var source: String
        public var maxAge: Double
        public var timeout: Double
        public var backoff: Double
        public var backoffMax: Double
        /// The only CA trusted for an https:// receiver, when one is given.
        public var caFile: String?
        public var pending: Int
        public var failed: Int
        public var lastError: String?

        public init(_ entry: Entry) {
            let spec = entry.spec
            (id, url, events, filter, secret) = (spec.id, spec.url, spec.events, spec.filter, spec.maskedSecret)
            (source, maxAge, timeout, backoff, backoffMax) = (
                entry.source.rawValue, spec.maxAge, spec.timeout, spec.backoff, spec.backoffMax
            )
            caFile = spec.caFile
            (pending, failed, lastError) = (entry.pending, entry.failed, entry.lastError)
        }
    }

    /// A hook that cannot be added or removed as asked.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        case exists(String)
        case notFound(String)
        case inConfiguration(String)

        public var description: String {
            switch self {
            case .exists(let id): "a hook with id '\(id)' exists; remove it first or choose another id"
            case .notFound(let id): "there is no hook '\(id)'; `meridian hooks list` shows them"
            case .inConfiguration(let id):
                "hook '\(id)' is defined in the configuration's hooks:; remove it there and restart the service"
            }
        }
    }

    /// Every hook's definition.
    public static func specs(_ db: Database) throws -> [HookSpec] {
        try String.fetchAll(db, sql: "SELECT spec FROM hooks ORDER BY id").compactMap(decode)
    }

    /// Every hook with its counts.
    public static func list(_ db: Database) throws -> [Entry] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT h.spec, h.source,
                    (SELECT count(*) FROM hooks_deliveries d WHERE d.hook_id = h.id AND d.dead_at IS NULL),
                    (SELECT count(*) FROM hooks_deliveries d WHERE d.hook_id = h.id AND d.dead_at IS NOT NULL),
                    (SELECT last_error FROM hooks_deliveries d WHERE d.hook_id = h.id AND d.dead_at IS NULL
                        ORDER BY event_seq LIMIT 1)
                FROM hooks h ORDER BY h.id
                """
        ).compactMap { row in
            guard let spec = decode(row[0]) else { return nil }
            return Entry(
                spec: spec, source: Source(rawValue: row[1]) ?? .api, pending: row[2], failed: row[3],
                lastError: row[4])
        }
    }

    /// Adds `spec` (already checked with `HookSpec.problem`).
    public static func add(_ spec: HookSpec, source: Source = .api, in db: Database) throws {
        guard try !exists(spec.id, db) else { throw Refusal.exists(spec.id) }
        try db.execute(
            sql: "INSERT INTO hooks (id, spec, source, created_at) VALUES (?, ?, ?, ?)",
            arguments: [spec.id, try encode(spec), source.rawValue, Date().timeIntervalSince1970])
    }

    /// Removes hook `id` added with `add` and what waits for it; a hook of the configuration is refused.
    public static func remove(_ id: String, in db: Database) throws {
        guard let source = try String.fetchOne(db, sql: "SELECT source FROM hooks WHERE id = ?", arguments: [id])
        else { throw Refusal.notFound(id) }
        guard source == Source.api.rawValue else { throw Refusal.inConfiguration(id) }
        try delete(id, db)
    }

    /// Whether the stored configured hooks are exactly `hooks` (then a start need not write).
    public static func isSynchronised(_ hooks: [HookSpec], in db: Database) throws -> Bool {
        let stored = try Row.fetchAll(db, sql: "SELECT id, spec FROM hooks WHERE source = 'config'")
        var wanted: [String: String] = [:]
        for hook in hooks { wanted[hook.id] = try encode(hook) }
        return stored.count == wanted.count && stored.allSatisfy { wanted[$0[0] as String] == $0[1] as String }
    }

    /// Makes the stored configuration hooks those of `hooks` (the service's start): new ones are added, changed ones
    /// replaced (what waits for them stays), and those no longer configured removed with what waits for them.
    /// A configured hook whose id a hook added with `add` has is refused.
    public static func syncConfiguration(_ hooks: [HookSpec], in db: Database) throws {
        let stored = try Row.fetchAll(db, sql: "SELECT id, source FROM hooks")
        let configured = Set(hooks.map(\.id))
        for row in stored where row[1] == Source.config.rawValue && !configured.contains(row[0] as String) {
            try delete(row[0], db)
        }
        for hook in hooks {
            if stored.contains(where: { $0[0] == hook.id && $0[1] == Source.api.rawValue }) {
                throw Refusal.exists(hook.id)
            }
            try db.execute(
                sql: """
                    INSERT INTO hooks (id, spec, source, created_at) VALUES (?, ?, 'config', ?)
                    ON CONFLICT (id) DO UPDATE SET spec = excluded.spec
                    """, arguments: [hook.id, try encode(hook), Date().timeIntervalSince1970])
        }
    }

    private static func exists(_ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM hooks WHERE id = ?", arguments: [id]) ?? false
    }

    private static func delete(_ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM hooks WHERE id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM hooks_deliveries WHERE hook_id = ?", arguments: [id])
        try HookDeliveries.deleteDeliveredEvents(db)
    }

    private static func encode(_ spec: HookSpec) throws -> String {
        String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
    }

    private static func decode(_ text: String) -> HookSpec? {
        try? JSONDecoder().decode(HookSpec.self, from: Data(text.utf8))
    }
}
