import FlyerProximity
import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import PhoneFeedProvider
import RunTracker
import Testing

/// Upgrades: `meridian store migrate` brings a database of the previous release's schema forward (`--dry-run` lists
/// what it would apply), and a database written by a newer Meridian is refused, naming both versions.
@Suite("schema upgrades")
struct SchemaUpgradeTests {
    /// Every plugin schema, as `StandardPlugins.schemas` lists them.
    static let schemas = [Store.schema] + RunTrackerSchema.schemas + [FlyerSchema.schema, DeviceStore.schema]

    /// A database with every plugin's migrations but its newest: the previous release's schema.
    static func previousRelease(at path: String) throws {
        let store = try Store.open(path: path)
        for schema in schemas.dropFirst() { try store.migrate(schema.droppingNewest()) }
        store.close(logger: .init(label: "test"))
    }

    @Test("store migrate --dry-run lists the newest migrations of a previous release's database; migrate applies them")
    func previousReleaseMigrates() throws {
        let directory = try TestData.temporaryDirectory("upgrade")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("previous.sqlite").path
        try Self.previousRelease(at: database)
        let newest = Self.schemas.dropFirst().compactMap(\.identifiers.last)

        let dryRun = try MeridianBinary.run(["store", "migrate", "--dry-run", "--db", database])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdout == "\(database): \(newest.count) pending migrations:\n" + newest.map { "  \($0)\n" }.joined(),
            "\(dryRun.stdout)")
        let unchanged = try MeridianBinary.run(["store", "migrate", "--dry-run", "--db", database])
        #expect(unchanged.stdout == dryRun.stdout, "a dry run changed the database")

        let migrated = try MeridianBinary.run(["store", "migrate", "--db", database])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("applied \(newest.count) migrations"), "\(migrated.stdout)")
        let after = try MeridianBinary.run(["store", "migrate", "--dry-run", "--db", database])
        #expect(after.stdout == "\(database): no pending migrations\n", "\(after.stdout)")
        #expect(try MeridianBinary.run(["runs", "list", "--db", database]).status == 0)
        #expect(try MeridianBinary.run(["store", "check", "--db", database]).status == 0)
    }

    @Test("a database written by a newer Meridian is refused, naming both versions, and left unchanged")
    func newerDatabaseRefused() throws {
        let directory = try TestData.temporaryDirectory("newer-schema")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("newer.sqlite").path
        let store = try Store.open(path: database)
        for schema in Self.schemas.dropFirst() { try store.migrate(schema) }
        store.close(logger: .init(label: "test"))
        let known = RunSchema.schema.identifiers.count
        _ = try BackupRestoreTests.sqlite(
            """
            INSERT INTO grdb_migrations VALUES ('run-tracker.v99-from-the-future');
            INSERT INTO meridian_schema_history VALUES ('run-tracker.v99-from-the-future', '9.0.0', 0);
            """, on: database)
        let before = try BackupRestoreTests.sqlite("SELECT group_concat(identifier) FROM grdb_migrations", on: database)

        for arguments in [["runs", "list"], ["store", "migrate", "--dry-run"], ["store", "migrate"]] {
            let refused = try MeridianBinary.run(arguments + ["--db", database])
            #expect(refused.status == 1, "\(arguments): \(refused.stdout)")
            #expect(refused.stderr.contains("written by Meridian 9.0.0"), "\(arguments): \(refused.stderr)")
            #expect(
                refused.stderr.contains("run-tracker tables are at schema version \(known + 1)"), "\(refused.stderr)")
            #expect(
                refused.stderr.contains(
                    "this Meridian \(MeridianVersion.current) knows run-tracker schema versions up to \(known)"),
                "\(refused.stderr)")
        }
        #expect(
            try BackupRestoreTests.sqlite("SELECT group_concat(identifier) FROM grdb_migrations", on: database)
                == before)
    }
}
