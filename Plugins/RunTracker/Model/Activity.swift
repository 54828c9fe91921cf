import MeridianCore

/// What kind of activity a run is; each has its own plausibility limits.
public enum Activity: String, Sendable, Codable, CaseIterable, ConfigEnum {
    case run, walk, hike, ride, other

    /// Whether cadence is counted in steps (runs, walks, hikes); devices and files count strides.
    package var countsSteps: Bool { self == .run || self == .walk || self == .hike }
}
