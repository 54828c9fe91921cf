import Foundation
import MeridianStore
import MeridianTesting
import Testing

/// `meridian backup` and `meridian restore` on real stores, with the real binary: copies taken while the service
/// records a run and a flyer import writes are whole and sound; a backup killed mid-copy leaves nothing under its
/// name and the source untouched; restore is refused while the service has the database open.
@Suite("backup and restore")
struct BackupRestoreTests {
    static let token = "backup-test-token-0123456789abcdef"

    /// A configuration serving `database` on `port` (which `runs start --config` reads) with a replayed run (10× real time), the run tracker and flyers.
    static func writeConfig(_ directory: URL, database: String, port: Int) throws -> String {
        let config = directory.appendingPathComponent("serve.yaml")
        try replayedRunConfig(database: database, port: port, token: token, consumers: ["run-tracker", "flyers"])
            .write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    static func serve(config: String, in directory: URL) async throws -> ManagedProcess {
        try await MeridianBinary.serve(config: config, in: directory).process
    }

    /// What SQLite's own shell answers to `sql` (one number) on the database at `path`.
    static func count(_ sql: String, in path: String) throws -> Int {
        try Int(sqlite(sql, on: path)) ?? -1
    }

    static func sqlite(_ sql: String, on path: String) throws -> String {
        try SearchIndexDamageTests.sqlite(path, sql)
    }

    /// A CSV of `count` flyers.
    static func flyerCSV(_ count: Int, in directory: URL) throws -> String {
        var csv = "id,title,lat,lon,category\n"
        for index in 0..<count {
            csv +=
                "f\(index),Flyer \(index),\(47 + Double(index % 1000) / 1000),\(1 + Double(index / 1000) / 1000),sale\n"
        }
        let file = directory.appendingPathComponent("flyers.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test("backups taken during a live run and a flyer import are whole and pass the check")
    func backupWhileWriting() async throws {
        let directory = try TestData.temporaryDirectory("backup-live")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("meridian.sqlite").path
        let config = try Self.writeConfig(directory, database: database, port: try FreePort.next())
        let service = try await Self.serve(config: config, in: directory)
        defer { service.stop() }
        let started = try MeridianBinary.run(["runs", "start", "--config", config])
        try #require(started.status == 0, "\(started.stdout)\(started.stderr)")
        try await ManagedProcess.waitUntil(timeout: 30, "the live run's first points") {
            (try? Self.count("SELECT count(*) FROM run_points", in: database)) ?? 0 >= 20
        }

        let flyers = 100_000
        let csv = try Self.flyerCSV(flyers, in: directory)
        let importer = try ManagedProcess(
            MeridianBinary.path, ["flyers", "import", csv, "--db", database], currentDirectory: directory)
        defer { importer.stop() }
        var backups = 0
        var takenDuringImport = 0
        repeat {
            let during = importer.isRunning
            let copy = directory.appendingPathComponent("backup-\(backups).sqlite").path
            let backup = try MeridianBinary.run(["backup", copy, "--db", database])
            #expect(backup.status == 0, "\(backup.stdout)\(backup.stderr)")
            #expect(backup.stdout.contains("the copy is sound"), "\(backup.stdout)")
            let check = try MeridianBinary.run(["store", "check", "--full", "--db", copy])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            // One moment of the database: the import (one transaction) is in it whole or not at all, and so is
            // each of its flyers' R*Tree entries; the live run is in it with its points.
            let copied = try Self.count("SELECT count(*) FROM flyers", in: copy)
            #expect(copied == 0 || copied == flyers, "\(copied) flyers in backup \(backups)")
            #expect(try Self.count("SELECT count(*) FROM runs WHERE state = 'tracking'", in: copy) == 1)
            #expect(try Self.count("SELECT count(*) FROM run_points", in: copy) >= 20)
            #expect(FileManager.default.fileExists(atPath: StoreBackup.partialPath(for: copy)) == false)
            if during { takenDuringImport += 1 }
            backups += 1
        } while importer.isRunning && backups < 20
        importer.waitUntilExit()
        #expect(importer.exitStatus == 0, "\(importer.output())")
        #expect(takenDuringImport >= 1, "no backup was started while the import ran")
        #expect(service.isRunning, "\(service.output())")
        let source = try MeridianBinary.run(["store", "check", "--db", database])
        #expect(source.status == 0, "\(source.stdout)\(source.stderr)")
    }

    @Test("a backup killed mid-copy leaves the source untouched and nothing under the backup's name")
    func killedBackup() async throws {
        let directory = try TestData.temporaryDirectory("backup-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("large.sqlite").path
        _ = try Self.sqlite(
            """
            CREATE TABLE filler (data BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4096)
            INSERT INTO filler SELECT randomblob(65536) FROM n;
            """, on: database)
        let before = try Self.digest(database)
        let destination = directory.appendingPathComponent("copy.sqlite").path

        let backup = try ManagedProcess(
            MeridianBinary.path, ["backup", destination, "--db", database], currentDirectory: directory)
        try await ManagedProcess.waitUntil(timeout: 30, "the backup to start writing") {
            FileManager.default.fileExists(atPath: StoreBackup.partialPath(for: destination)) || !backup.isRunning
        }
        try #require(backup.isRunning, "the backup ended before it could be killed: \(backup.output())")
        backup.send(SIGKILL)
        backup.waitUntilExit()

        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try Self.digest(database) == before)
        let check = try MeridianBinary.run(["store", "check", "--db", database])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // The next backup replaces the partial copy the killed one left.
        let again = try MeridianBinary.run(["backup", destination, "--db", database])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try Self.count("SELECT count(*) FROM filler", in: destination) == 4096)
        #expect(!FileManager.default.fileExists(atPath: StoreBackup.partialPath(for: destination)))
    }

    /// The SHA-256 of the file and its write-ahead log, by `sha256sum`.
    static func digest(_ path: String) throws -> String {
        let files = [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
        let sum = try ManagedProcess("sha256sum", files)
        sum.waitUntilExit()
        return sum.output()
    }

    @Test("restore is refused while meridian serve has the database open, and works once it stopped")
    func restoreWhileServing() async throws {
        let directory = try TestData.temporaryDirectory("restore")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("meridian.sqlite").path
        let csv = try Self.flyerCSV(500, in: directory)
        let imported = try MeridianBinary.run(["flyers", "import", csv, "--db", database])
        try #require(imported.status == 0, "\(imported.stderr)")
        let backupFile = directory.appendingPathComponent("backup.sqlite").path
        #expect(try MeridianBinary.run(["backup", backupFile, "--db", database]).status == 0)
        let removed = try MeridianBinary.run(["flyers", "delete", "f1", "--db", database])
        try #require(removed.status == 0, "\(removed.stdout)\(removed.stderr)")

        let config = try Self.writeConfig(directory, database: database, port: try FreePort.next())
        let service = try await Self.serve(config: config, in: directory)
        let refused = try MeridianBinary.run(["restore", backupFile, "--config", config])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is open in process \(service.pid)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("stop it first"), "\(refused.stderr)")
        #expect(try Self.count("SELECT count(*) FROM flyers", in: database) == 499)
        service.stop()

        let restored = try MeridianBinary.run(["restore", backupFile, "--config", config])
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        #expect(try Self.count("SELECT count(*) FROM flyers", in: database) == 500)
        #expect(try Self.count("SELECT count(*) FROM flyers", in: database + ".before-restore") == 499)
        let check = try MeridianBinary.run(["store", "check", "--db", database])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("a PostGIS database is backed up with pg_dump: the command says how")
    func postgres() throws {
        let url = "postgres://meridian@localhost/flyers"
        let answer = try MeridianBinary.run(["backup", "flyers.dump", "--db", url])
        #expect(answer.status == 1)
        #expect(
            answer.stderr.contains("pg_dump --format=custom --file=meridian-flyers.dump \(url)"), "\(answer.stderr)")
    }
}
