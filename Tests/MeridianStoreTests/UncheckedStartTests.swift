import Foundation
import GRDB
import MeridianTesting
import Testing

@testable import MeridianStore

/// A service start on a file no checked store closed cleanly (after a crash or `kill -9`, a command that was not
/// the service, or `sqlite3`): the store opens at once, reads work, writes are refused until the whole-file check
/// has passed in the background; a start that must migrate checks the file first.
@Suite("unchecked start")
struct UncheckedStartTests {
    /// A store file with one table and row, closed cleanly (stamped), then its stamp removed.
    static func unstampedFile() throws -> (path: String, directory: URL) {
        let directory = try TestData.temporaryDirectory("unchecked-start")
        let path = directory.appendingPathComponent("meridian.sqlite").path
        let store = try Store.open(path: path)
        try store.database.write { db in
            try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')")
        }
        store.close()
        #expect(VerifiedStamp.matches(path), "a file this open created is stamped when closed")
        VerifiedStamp.remove(path)
        return (path, directory)
    }

    static func firstNote(_ store: Store) throws -> String? {
        try store.database.read { db in try String.fetchOne(db, sql: "SELECT text FROM notes") }
    }

    static func write(_ store: Store) throws {
        try store.database.write { db in try db.execute(sql: "INSERT INTO notes VALUES ('new')") }
    }

    @Test(
        "reads at once, writes refused as read-only from the hold until the background check passes, then stamped at close"
    )
    func writesWaitForTheCheck() async throws {
        let (path, directory) = try Self.unstampedFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: path, check: .integrityInBackground)
        try Self.write(store)
        try store.holdWritesUntilChecked()
        #expect(store.wholeFileCheckDeferred && store.writesHeldUntilChecked)
        #expect(try Self.firstNote(store) == "kept")
        do {
            try Self.write(store)
            Issue.record("a write was taken before the check passed")
        } catch let error as DatabaseError {
            #expect(error.refusal == .readOnly, "\(error)")
        }
        #expect(store.writeRefusal?.contains("being checked after an unclean stop") == true)

        let report = try await store.checkInBackground()
        #expect(report.isHealthy)
        #expect(!store.wholeFileCheckDeferred && !store.writesHeldUntilChecked && store.writeRefusal == nil)
        try Self.write(store)
        store.close()
        #expect(VerifiedStamp.matches(path), "checked whole, so a clean close stamps it")
        let again = try Store.open(path: path, check: .integrityInBackground)
        defer { again.close() }
        try again.holdWritesUntilChecked()
        #expect(again.wholeFileCheckDeferred && !again.writesHeldUntilChecked)
    }

    @Test("a start that must migrate checks the whole file first, then writes at once")
    func migrationChecksFirst() throws {
        let (path, directory) = try Self.unstampedFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: path, check: .integrityInBackground)
        defer { store.close() }
        #expect(store.wholeFileCheckDeferred)
        try store.migrate(plugin: "later") { migrations in
            migrations.register("v1") { db in try db.execute(sql: "CREATE TABLE later_things (id INTEGER)") }
        }
        #expect(!store.wholeFileCheckDeferred)
        try store.holdWritesUntilChecked()
        #expect(!store.writesHeldUntilChecked)
        try Self.write(store)
    }

    @Test("a store closed twice is closed once")
    func closeTwice() throws {
        let (path, directory) = try Self.unstampedFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: path)
        store.close()
        store.close()
        #expect(!VerifiedStamp.matches(path), "a quick check proves nothing: no stamp")
    }
}
