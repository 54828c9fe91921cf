import Foundation
import MeridianCore

/// What kind of activity a run is; each has its own plausibility limits.
public enum Activity: String, Sendable, Codable, CaseIterable, ConfigEnum {
    case run, walk, hike, ride, other

    /// Whether cadence is counted in steps (runs, walks, hikes); devices and files count strides.
    package var countsSteps: Bool { self == .run || self == .walk || self == .hike }

    /// "Run 2024-06-03 07:12" (the start in UTC): the name of a run that was given none and whose file names none.
    package func runName(startedAt: Date) -> String {
        rawValue.prefix(1).uppercased() + rawValue.dropFirst() + " "
            + ISO8601.string(from: startedAt).prefix(16).replacingOccurrences(of: "T", with: " ")
    }
}
