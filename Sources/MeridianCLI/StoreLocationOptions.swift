import ArgumentParser
import Foundation
import MeridianCore
import MeridianStore

/// Where commands that work on the database find it: `--db`, else `MERIDIAN_DB`, else
/// `store.path` of the configuration (`--config`, `MERIDIAN_CONFIG`, or the default file when it exists).
public struct StoreLocationOptions: ParsableArguments {
    @Option(help: "Configuration file (default Config/meridian.yaml or MERIDIAN_CONFIG).")
    public var config: String?

    @Option(help: "SpatiaLite database file (overrides MERIDIAN_DB and store.path); the flyers commands also take a postgres:// URL.")
    public var db: String?

    public init() {}

    /// The configuration, when one was named or the default file exists; errors exit with code 2.
    public func loadConfig() throws -> MeridianConfig? {
        try ConfigLookup.load(explicit: config)
    }

    /// The database path this command uses; without any of `--db`, `MERIDIAN_DB` or a configuration, the default
    /// path, said on stderr.
    public func storePath(_ config: MeridianConfig?) -> String {
        if let path = db ?? ProcessInfo.processInfo.environment["MERIDIAN_DB"].flatMap({ $0.isEmpty ? nil : $0 }) ?? config?.store.path {
            return path
        }
        let path = StoreSettings().path
        ConfigLookup.noteDefault("using the database \(path) (give --db, MERIDIAN_DB or --config for another)")
        return path
    }

    /// Opens (creating if needed) the database.
    public func openStore(_ config: MeridianConfig?) throws -> Store {
        do {
            return try Store.open(path: storePath(config), busyTimeout: config?.store.busyTimeout ?? Store.defaultBusyTimeout)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
