import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing

@testable import MeridianStore

@Suite("SpatiaLite store")
struct StoreTests {
    @Test("a new file has SpatiaLite loaded and WGS84 metadata")
    func spatialiteLoaded() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let metres = try temporary.store.database.read { db in
            try Double.fetchOne(db, sql: "SELECT ST_Distance(MakePoint(0, 0, 4326), MakePoint(1, 0, 4326), 1)")
        }
        #expect(abs((metres ?? 0) - 111_319.490_793) < 0.01)
        let journal = try temporary.store.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test("every pooled connection has SpatiaLite, including concurrent readers")
    func everyConnection() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let store = temporary.store
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await store.database.read { db in try String.fetchOne(db, sql: "SELECT spatialite_version()") }
                }
            }
            for try await version in group { #expect(version?.isEmpty == false) }
        }
    }

    @Test("the busy timeout given is every writing connection's, although loading SpatiaLite sets 5 s")
    func busyTimeoutKept() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let store = try Store.open(path: temporary.store.path, busyTimeout: 1.5)
        let milliseconds = try store.database.write { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout") }
        #expect(milliseconds == 1500)
    }

    @Test("SQLite's 'full' is a full disk that says to free space, reported as full, never a matter of permissions")
    func fullDisk() throws {
        let error = Store.classify(
            DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"), path: "/data/m.sqlite")
        #expect(error.isFull)
        #expect(
            error.description.contains("is full") && error.description.contains("free space")
                && !error.description.contains("permissions"))
        #expect(error.refusal == .full)
        #expect(DatabaseError(resultCode: .SQLITE_FULL).refusal == .full)
    }

    @Test(
        "the store reports what SQLite met (busy, locked, read-only, full, damaged) and nothing of how the API answers it"
    )
    func refusals() {
        let sqlite: [(ResultCode, StorageRefusal?)] = [
            (.SQLITE_BUSY, .busy), (.SQLITE_LOCKED, .locked), (.SQLITE_READONLY, .readOnly),
            (.SQLITE_FULL, .full), (.SQLITE_CONSTRAINT, nil), (.SQLITE_CORRUPT, nil)
        ]
        for (code, refusal) in sqlite { #expect(DatabaseError(resultCode: code).refusal == refusal, "\(code)") }
        #expect(StoreError.busy(path: "/data/m.sqlite").refusal == .busy)
        #expect(StoreError.damaged(path: "/data/m.sqlite", detail: "quick_check").refusal == .damaged)
        #expect(StoreError.cannotOpen(path: "/data/m.sqlite", detail: "not a database").refusal == nil)
    }

    @Test("a damaged store says what to do without naming any plugin's command")
    func damageMessage() {
        let message = StoreError.damaged(path: "/data/m.sqlite", detail: "integrity_check: row 3 missing from index")
            .description
        #expect(
            message.contains("meridian store check --db /data/m.sqlite") && message.contains("re-import your data"),
            "\(message)")
        #expect(!message.contains("flyers") && !message.contains("runs"), "\(message)")
    }

    @Test("plugins migrate independently and only once")
    func pluginMigrations() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        var runs = 0
        for _ in 0..<2 {
            try temporary.store.migrate(plugin: "alpha") {
                $0.register("v1") { db in try db.execute(sql: "CREATE TABLE alpha (id INTEGER)") }
            }
            try temporary.store.migrate(plugin: "beta") {
                $0.register("v1") { db in try db.execute(sql: "CREATE TABLE beta (id INTEGER)") }
            }
            runs += 1
        }
        // Reopening the same file applies nothing again.
        let reopened = try Store.open(path: temporary.store.path)
        try reopened.migrate(plugin: "alpha") {
            $0.register("v1") { db in try db.execute(sql: "CREATE TABLE alpha (id INTEGER)") }
        }
        let tables = try reopened.database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name IN ('alpha', 'beta') ORDER BY name")
        }
        #expect(tables == ["alpha", "beta"])
        #expect(runs == 2)
    }

    @Test("a failing migration leaves nothing behind and names the plugin")
    func failedMigration() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        #expect {
            try temporary.store.migrate(plugin: "broken") { migrations in
                migrations.register("v1") { db in
                    try db.execute(sql: "CREATE TABLE half (id INTEGER)")
                    try db.execute(sql: "THIS IS NOT SQL")
                }
            }
        } throws: { error in
            "\(error)".contains("'broken'")
        }
        let exists = try temporary.store.database.read { db in try db.tableExists("half") }
        #expect(!exists)
    }

    @Test("a damaged or foreign file is refused with a clear message")
    func damagedFile() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("not-a-db.sqlite").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Store.open(path: path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("backup")
        }
    }

    @Test("a corrupted page is caught by quick_check at start-up")
    func corruptedPage() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        try temporary.store.database.write { db in
            try db.execute(sql: "CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)")
            for index in 0..<2000 {
                try db.execute(
                    sql: "INSERT INTO filler (body) VALUES (?)",
                    arguments: [String(repeating: "x", count: 100) + "\(index)"])
            }
        }
        try temporary.store.database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        let path = temporary.store.path
        // Overwrite the middle of the file (table pages) with garbage.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        handle.write(Data(repeating: 0xFF, count: 8192))
        try handle.close()
        #expect {
            _ = try Store.open(path: path)
        } throws: { error in
            guard let error = error as? StoreError, case .damaged = error else { return false }
            return true
        }
    }

    @Test("an in-memory store works for tests")
    func inMemory() throws {
        let store = try Store.inMemory()
        let count = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM spatial_ref_sys") }
        #expect((count ?? 0) > 0)
    }
}
