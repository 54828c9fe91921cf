import Foundation
import GRDB
import MeridianCore

/// A plugin's migrations, applied in registration order; what `PluginSchema`'s closure registers them on.
public struct PluginMigrations {
    public let plugin: String
    fileprivate var steps: [PluginSchema.Step] = []

    init(plugin: String) {
        self.plugin = plugin
    }

    /// Registers migration `name` (stored as `<plugin>.<name>`); it runs once, in a transaction.
    public mutating func register(_ name: String, _ migrate: @escaping @Sendable (Database) throws -> Void) {
        steps.append(PluginSchema.Step(identifier: "\(plugin).\(name)", migrate: migrate))
    }
}

/// The migrations of one plugin's tables, in order. Migrations only move forward: a release adds migrations after
/// the existing ones and never changes or removes one. A plugin's schema version is the number of its migrations.
///
/// Each migration also records, in `meridian_schema_history`, the Meridian version that applied it, so that an older
/// Meridian refusing the database can say which one wrote it.
public struct PluginSchema: Sendable {
    struct Step: Sendable {
        var identifier: String
        var migrate: @Sendable (Database) throws -> Void
    }

    public let plugin: String
    let steps: [Step]

    /// The schema whose migrations `register` registers.
    public init(plugin: String, _ register: (inout PluginMigrations) -> Void) {
        var migrations = PluginMigrations(plugin: plugin)
        register(&migrations)
        self.init(plugin: plugin, steps: migrations.steps)
    }

    private init(plugin: String, steps: [Step]) {
        self.plugin = plugin
        self.steps = steps
    }

    /// The migration identifiers (`<plugin>.<name>`), oldest first.
    public var identifiers: [String] { steps.map(\.identifier) }

    /// This schema without its newest `count` migrations: the schema of an earlier release (for upgrade tests).
    public func droppingNewest(_ count: Int = 1) -> PluginSchema {
        PluginSchema(plugin: plugin, steps: Array(steps.dropLast(count)))
    }

    /// The identifiers of the migrations not yet applied to `db`, oldest first.
    public func pending(_ db: Database) throws -> [String] {
        let applied = try migrator.appliedIdentifiers(db)
        return identifiers.filter { !applied.contains($0) }
    }

    /// Throws `StoreError.newerSchema` when `db` holds a migration of this plugin that this schema does not know.
    func refuseNewer(_ db: Database, path: String) throws(StoreError) {
        let applied: Set<String>
        do {
            applied = try migrator.appliedIdentifiers(db)
        } catch {
            throw Store.classify(error, path: path)
        }
        let own = applied.filter { $0.hasPrefix(plugin + ".") }
        let unknown = own.subtracting(identifiers).sorted()
        guard !unknown.isEmpty else { return }
        let writers =
            (try? String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT meridian_version FROM meridian_schema_history WHERE identifier IN (\(unknown.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments(unknown))) ?? []
        throw .newerSchema(
            path: path, plugin: plugin, databaseVersion: own.count, knownVersion: steps.count,
            unknown: unknown, writtenBy: writers.sorted().last)
    }

    /// A GRDB migrator of these steps, each also recorded in `meridian_schema_history` in its transaction.
    var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.identifier) { db in
                try step.migrate(db)
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS meridian_schema_history (
                            identifier TEXT NOT NULL PRIMARY KEY, meridian_version TEXT NOT NULL, applied_at REAL NOT NULL)
                        """)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO meridian_schema_history VALUES (?, ?, ?)",
                    arguments: [step.identifier, MeridianVersion.current, Date().timeIntervalSince1970])
            }
        }
        return migrator
    }
}

extension Store {
    /// The migrations of `schemas` not yet applied to the database at `path` (which must exist), read without
    /// changing it; throws `StoreError.newerSchema` when a newer Meridian wrote the database.
    public static func pendingMigrations(path: String, schemas: [PluginSchema]) throws(StoreError) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(
                path: path, detail: "there is no such file; give the database with --db, MERIDIAN_DB or store.path")
        }
        var readOnly = configuration()
        readOnly.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            defer { try? queue.close() }
            return try queue.read { db in
                for schema in schemas { try schema.refuseNewer(db, path: path) }
                return try schemas.flatMap { try $0.pending(db) }
            }
        } catch {
            throw classify(error, path: path)
        }
    }
}
