import Foundation
import MeridianCore

/// How commands find their configuration: `--config`, else `MERIDIAN_CONFIG`, else `Config/meridian.yaml` when it
/// exists (a command runs on defaults without one).
public enum ConfigLookup {
    /// The configuration, when one was named or the default file exists; errors exit with code 2.
    public static func load(explicit: String?) throws -> MeridianConfig? {
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigLoader.resolvePath(explicit, environment: environment)
        let named = explicit != nil || environment["MERIDIAN_CONFIG"] != nil
        guard named || FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try ConfigLoader.load(path: path, environment: environment)
        } catch {
            throw CommandFailure("\(error)", code: CommandFailure.usage)
        }
    }

    /// Says on stderr that no configuration was found and which default stands in for `setting`.
    public static func noteDefault(_ setting: String) {
        Standard.error(
            "meridian: no configuration (no --config, no MERIDIAN_CONFIG, no \(ConfigLoader.defaultPath) here); \(setting)"
        )
    }
}
