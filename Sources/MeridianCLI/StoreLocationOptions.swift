import ArgumentParser
import Foundation
import MeridianCore
import MeridianStore

/// Where commands that work on the database find it: `--db`, else `MERIDIAN_DB`, else
/// `store.path` of the configuration (`--config`, `MERIDIAN_CONFIG`, or the default file when it exists).
public struct StoreLocationOptions: ParsableArguments {
    @Option(help: "Configuration file (default Config/meridian.yaml or MERIDIAN_CONFIG).")
    public var config: String?

    @Option(
        help:
            "SpatiaLite database file (overrides MERIDIAN_DB and store.path); a command that can use PostgreSQL also takes a postgres:// URL."
    )
    public var db: String?

    public init() {}

    /// The configuration, when one was named or the default file exists; errors exit with code 2.
    public func loadConfig() throws -> MeridianConfig? {
        try ConfigLookup.load(explicit: config)
    }

    /// The database path this command uses; without any of `--db`, `MERIDIAN_DB` or a configuration, the default
    /// path, said on stderr.
    public func storePath(_ config: MeridianConfig?) -> String {
        storeLocation(config).path
    }

    /// The database path and where it came from (`--db`, `MERIDIAN_DB`, the configuration's `store.path`, or the
    /// default, said on stderr).
    private func storeLocation(_ config: MeridianConfig?) -> (path: String, source: String) {
        if let db { return (db, "--db") }
        if let path = ProcessInfo.processInfo.environment["MERIDIAN_DB"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return (path, "MERIDIAN_DB")
        }
        if let config { return (config.store.path, "store.path in \(config.file ?? "the configuration")") }
        let path = StoreSettings().path
        ConfigLookup.noteDefault("using the database \(path) (give --db, MERIDIAN_DB or --config for another)")
        return (path, "the default, without a configuration")
    }

    /// Opens the database, which must exist: commands that read or change what is stored never create one
    /// (`requireExisting`); only the commands that add data do (`openStore`).
    public func openExistingStore(_ config: MeridianConfig?) throws -> Store {
        let (path, source) = storeLocation(config)
        try Self.requireExisting(path, source: source)
        return try Self.open(path, config)
    }

    /// Fails, saying there is no database and where this command looked, when `path` (named by `source`) does not exist.
    public static func requireExisting(_ path: String, source: String) throws(CommandFailure) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        throw CommandFailure(
            """
            there is no database at \(path) (from \(source)); nothing has been stored there yet: import or add data \
            first (meridian help lists each plugin's commands), or name the database with --db, MERIDIAN_DB or store.path
            """)
    }

    /// Opens (creating if needed) the database.
    public func openStore(_ config: MeridianConfig?) throws -> Store {
        try Self.open(storePath(config), config)
    }

    private static func open(_ path: String, _ config: MeridianConfig?) throws -> Store {
        do {
            return CommandStores.opened(
                try Store.open(path: path, busyTimeout: config?.store.busyTimeout ?? Store.defaultBusyTimeout))
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
