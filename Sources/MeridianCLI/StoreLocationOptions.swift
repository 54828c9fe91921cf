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
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigLoader.resolvePath(config, environment: environment)
        let named = config != nil || environment["MERIDIAN_CONFIG"] != nil
        guard named || FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try ConfigLoader.load(path: path, environment: environment)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }

    /// The database path this command uses.
    public func storePath(_ config: MeridianConfig?) -> String {
        db ?? ProcessInfo.processInfo.environment["MERIDIAN_DB"].flatMap { $0.isEmpty ? nil : $0 }
            ?? config?.store.path ?? StoreSettings().path
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
