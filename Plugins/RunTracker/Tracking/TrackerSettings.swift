/// The tracker's named thresholds. Every value has a default; the plugin's options override them.
package struct TrackerSettings: Sendable, Equatable {
    /// Fixes with a horizontal accuracy worse than this are rejected, metres.
    package var maxAccuracy: Double = 50
    /// In an imported file, a longer time without any fix is a pause (the device was stopped), seconds.
    package var pauseGapSeconds: Double = 300
    /// Window of the smoothed current speed and pace, seconds.
    package var speedWindow: Double = 30
    /// Each half of the window that derives speed from positions when the receiver reports none, seconds.
    package var derivedSpeedHalfWindow: Double = 15
    /// Altitude change needed before it counts as gain or loss, metres.
    package var elevationHysteresis: Double = 3
    /// Number of recent altitudes averaged before the hysteresis.
    package var altitudeSmoothingPoints: Int = 5
    /// Leaving a stop needs this many times the horizontal accuracy away from the stop, at least.
    package var driftAccuracyFactor: Double = 2
    /// Accuracy assumed for fixes that report none (GPX files), metres.
    package var assumedAccuracy: Double = 5
    /// After this many consecutive implausible jumps the new position is believed and starts a new segment.
    package var jumpResetCount: Int = 5
    /// Fixes averaged for the movement pattern.
    package var patternSamples: Int = 20
    /// Length of a split, metres (1 km; the plugin uses 1 mile for imperial units).
    package var splitDistance: Double = 1000
    /// Per-activity limits.
    package var profiles: [Activity: ActivityProfile] = Dictionary(
        uniqueKeysWithValues: Activity.allCases.map {
            ($0, ActivityProfile.defaults(for: $0))
        })

    package init() {}

    /// The limits of `activity`.
    package func profile(_ activity: Activity) -> ActivityProfile {
        profiles[activity] ?? ActivityProfile.defaults(for: activity)
    }
}
