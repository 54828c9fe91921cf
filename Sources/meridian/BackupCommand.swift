import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import MeridianStore

/// `meridian backup DEST`: a consistent, checked copy of the live SpatiaLite database, taken while the service runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to DEST while the service runs, then check the copy.",
        discussion: """
            Uses SQLite's online backup API: the copy is the database as of one moment, consistent while runs are \
            recorded and flyers imported, and the service goes on writing meanwhile. The copy is written as \
            DEST.partial, checked (as meridian store check does), and renamed to DEST only when sound: DEST never \
            holds a half-written copy. DEST must not exist; it is readable by its owner only. A PostGIS flyer \
            database (postgres://) is backed up with pg_dump: the command says how.
            """
    )

    @Argument(help: "The backup file to write (must not exist).")
    var destination: String

    @OptionGroup var store: StoreLocationOptions

    func run() async throws {
        try await reportingFailures {
            let path = try PostgresDump.spatiaLitePath(store)
            guard !FileManager.default.fileExists(atPath: destination) else {
                throw CommandFailure(
                    "\(destination) already exists; give a new name for the backup, or remove that file first")
            }
            let report: StoreCheckReport
            do {
                report = try StoreBackup.backup(path, to: destination)
            } catch {
                throw CommandFailure("backup of \(path) failed: \(error)")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
            let rtrees = report.checks.filter { $0.name == "rtreecheck" }.count
            print(
                "\(path) backed up to \(destination) (\(size) bytes); the copy is sound (integrity_check, \(Counted.string(rtrees, "R*Tree")))"
            )
        }
    }
}

/// What to do instead for a PostGIS database: `pg_dump` and `pg_restore`.
enum PostgresDump {
    /// The SpatiaLite file `store` names; a `postgres://` URL fails with the `pg_dump` and `pg_restore` commands for it.
    static func spatiaLitePath(_ store: StoreLocationOptions) throws -> String {
        let path = store.storePath(try store.loadConfig())
        guard Store.looksLikeURL(path) else { return path }
        throw CommandFailure(
            """
            \(path) is a PostgreSQL database: back it up with PostgreSQL's own tools, e.g. \
            pg_dump --format=custom --file=meridian-flyers.dump \(ShellWord.quoted(path)) \
            (restore with pg_restore --clean --if-exists --dbname=\(ShellWord.quoted(path)) meridian-flyers.dump)
            """)
    }
}
