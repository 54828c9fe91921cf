import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import MeridianStore

/// `meridian restore SRC`: replaces the database with a checked copy of a backup, refused while it is in use.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup made by meridian backup.",
        discussion: """
            Refused while another process (meridian serve, an import) has the database open: stop the service \
            first. The backup is copied beside the database, checked, and put in its place; the database it \
            replaces is kept as <database>.before-restore. A PostGIS flyer database is restored with pg_restore.
            """
    )

    @Argument(help: "The backup file to restore.")
    var source: String

    @OptionGroup var store: StoreLocationOptions

    func run() async throws {
        try await reportingFailures {
            let path = try PostgresDump.spatiaLitePath(store)
            do {
                try StoreBackup.restore(source, to: path)
            } catch {
                throw CommandFailure("restore of \(source) failed: \(error)")
            }
            let kept =
                FileManager.default.fileExists(atPath: path + ".before-restore")
                ? "; the database it replaced is \(path).before-restore" : ""
            print("\(source) restored to \(path)\(kept)")
        }
    }
}
