import ArgumentParser
import Logging
import MeridianCLI
import MeridianCore
import MeridianStore

/// `meridian store check`: checks the database file thoroughly and says what is damaged and what to do;
/// `meridian store migrate`: brings every table to this Meridian's schema, or lists what that would do.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work with the SpatiaLite database.",
        subcommands: [Check.self, Migrate.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the database for damage: exit 0 when it is sound, 1 with what is damaged and what to do.",
            discussion: """
                Runs SQLite's integrity_check (pages, records, and every index against its table) and rtreecheck on \
                every R*Tree; --full also compares each spatial index with its geometries (SpatiaLite's \
                CheckSpatialIndex, reading every geometry). Nothing is changed. The service itself runs \
                integrity_check when it starts; other commands the faster quick_check.
                """
        )

        @OptionGroup var store: StoreLocationOptions

        @Flag(help: "Also compare every spatial index with its geometries (slower).")
        var full = false

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                let path = store.storePath(try store.loadConfig())
                let report: StoreCheckReport
                do {
                    report = try StoreCheck.run(path: path, full: full)
                } catch {
                    throw CommandFailure("\(error)")
                }
                print(json ? try MeridianJSON.string(report) : Self.text(report))
                if !report.isHealthy { throw ExitCode(1) }
            }
        }

        static func text(_ report: StoreCheckReport) -> String {
            let rtrees = report.checks.filter { $0.name == "rtreecheck" }.count
            guard !report.isHealthy else {
                let checks = report.checks.map(\.name).reduce(into: [String]()) {
                    if !$0.contains($1) { $0.append($1) }
                }
                return "\(report.path): ok (\(checks.joined(separator: ", ")); \(Counted.string(rtrees, "R*Tree")))"
            }
            var lines = ["\(report.path): damaged"]
            for check in report.checks {
                let name = check.subject.map { "\(check.name) \($0)" } ?? check.name
                if check.isOK { lines.append("  \(name): ok") }
                for problem in check.problems { lines.append("  \(name): \(problem)") }
            }
            lines.append("damaged: \(report.damaged.joined(separator: ", "))")
            lines.append(
                """
                what to do: stop the service and restore the file from a backup; without one, move the file away, \
                start with a new store and re-import your data with each plugin's import command (meridian help lists them)
                """)
            return lines.joined(separator: "\n")
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Apply the pending schema migrations of every plugin (--dry-run lists them and changes nothing).",
            discussion: """
                Migrations only move forward; every command and the service apply their own tables' migrations \
                when they open the database, so this is needed only to upgrade ahead of time. A database written \
                by a newer Meridian is refused, naming both versions. Take a backup first (meridian backup DEST).
                """
        )

        @OptionGroup var store: StoreLocationOptions

        @Flag(help: "List the pending migrations without applying them.")
        var dryRun = false

        func run() async throws {
            try await reportingFailures {
                let config = try store.loadConfig()
                let path = store.storePath(config)
                let pending: [String]
                do {
                    pending = try Store.pendingMigrations(path: path, schemas: StandardPlugins.schemas)
                } catch {
                    throw CommandFailure("\(error)")
                }
                guard !dryRun else {
                    print(
                        pending.isEmpty
                            ? "\(path): no pending migrations"
                            : "\(path): \(Counted.string(pending.count, "pending migration")):")
                    pending.forEach { print("  \($0)") }
                    return
                }
                let opened = try store.openExistingStore(config)
                defer { opened.close(logger: .init(label: "meridian.store")) }
                do {
                    for schema in StandardPlugins.schemas { try opened.migrate(schema) }
                } catch {
                    throw CommandFailure("\(error)")
                }
                print(
                    pending.isEmpty
                        ? "\(path): no pending migrations"
                        : "\(path): applied \(Counted.string(pending.count, "migration")):")
                pending.forEach { print("  \($0)") }
            }
        }
    }
}
