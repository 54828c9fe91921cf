import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// `meridian --version`: the version and each plugin's schema version, which is what a new database receives.
@Suite("Version")
struct VersionTests {
    @Test("--version prints the version and, per plugin, the schema version a new database receives from serve")
    func versionAndSchema() async throws {
        let result = try MeridianBinary.run(["--version"])
        #expect(result.status == 0)
        let prefix = "\(MeridianVersion.current) (database schema: "
        #expect(result.stdout.hasPrefix(prefix) && result.stdout.hasSuffix(")\n"), "\(result.stdout)")
        // "store 1, run-tracker 2, …" as plugin → number of migrations.
        let printed = Dictionary(
            uniqueKeysWithValues: result.stdout.dropFirst(prefix.count).dropLast(2)
                .split(separator: ", ").compactMap { entry -> (String, Int)? in
                    let parts = entry.split(separator: " ")
                    guard parts.count == 2, let count = Int(parts[1]) else { return nil }
                    return (String(parts[0]), count)
                })

        // The shipped configuration's consumers migrate the store as the host builds them, before the port answers.
        let served = try await ServedInstance()
        let database = served.directory.appendingPathComponent("meridian.sqlite").path
        served.process.stop(grace: 20)
        defer { served.stop() }
        var applied: [String: Int] = [:]
        for identifier in try Self.sqlite(database, "SELECT identifier FROM grdb_migrations").split(separator: "\n") {
            applied[String(identifier.prefix { $0 != "." }), default: 0] += 1
        }
        #expect(!applied.isEmpty)
        #expect(printed == applied, "--version says \(printed); a new database received \(applied)")
    }

    private static func sqlite(_ database: String, _ sql: String) throws -> String {
        try ProgramRun.blocking("/usr/bin/sqlite3", [database, sql]).stdout
    }
}
