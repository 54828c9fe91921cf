import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import MeridianStore

extension RunsStoreOptions {
    /// The opened store (tables created or updated) and what the configuration says about units, time zone and
    /// `route_match_m` (defaults without a configuration).
    func openProgress() throws -> (Store, ProgressSettings) {
        let config = try location.loadConfig()
        let store = try location.openExistingStore(config)
        try RunTrackerSchema.migrate(store)
        let options = try RunsImportCommand.trackerOptions(config)
        return (
            store,
            ProgressSettings(
                units: config?.units ?? .metric, timeZone: config?.timeZone ?? .current,
                matcher: options.matcher)
        )
    }
}

/// Runs `body`; bad input (an unknown or deleted run, route or segment, an invalid value) exits with code 2 and
/// its message.
func usageErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ProgressError {
        throw CommandFailure(error.description, code: 2)
    } catch let error as RunHistoryError {
        throw CommandFailure(error.description, code: 2)
    }
}

/// Text helpers of the progress commands.
enum ProgressText {
    /// A signed duration: `+1:07`, `-0:13`, `±0:00`.
    static func signedDuration(_ seconds: Double) -> String {
        let rounded = seconds.rounded()
        let sign = rounded > 0 ? "+" : rounded < 0 ? "-" : "±"
        return sign + TimeFormat.duration(seconds: abs(rounded))
    }

    /// A signed distance: `+0.3 km`, `-120 m`.
    static func signedDistance(_ metres: Double, units: UnitSystem) -> String {
        (metres < 0 ? "-" : "+") + DistanceFormat.string(metres: abs(metres), units: units)
    }
}
