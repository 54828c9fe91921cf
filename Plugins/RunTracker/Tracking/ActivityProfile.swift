/// Plausibility and auto-pause limits of one activity type (SI units).
package struct ActivityProfile: Sendable, Equatable, Codable {
    /// Fixes that would need a faster speed from the previous usable fix are rejected as implausible jumps, m/s.
    package var maxSpeed: Double
    /// Below this speed the athlete counts as standing (no distance, no moving time), m/s.
    package var movingSpeed: Double
    /// Auto-pause when the speed stays below this…, m/s.
    package var autoPauseSpeed: Double
    /// …for this long, seconds.
    package var autoPauseAfter: Double
    /// Auto-resume above this speed, m/s.
    package var autoResumeSpeed: Double
    /// Whether auto-pause is on.
    package var autoPause: Bool

    package init(
        maxSpeed: Double, movingSpeed: Double = 0.5, autoPauseSpeed: Double = 0.5, autoPauseAfter: Double = 30,
        autoResumeSpeed: Double = 1.0, autoPause: Bool = true
    ) {
        self.maxSpeed = maxSpeed
        self.movingSpeed = movingSpeed
        self.autoPauseSpeed = autoPauseSpeed
        self.autoPauseAfter = autoPauseAfter
        self.autoResumeSpeed = autoResumeSpeed
        self.autoPause = autoPause
    }

    /// Defaults: run 12 m/s, walk 4 m/s and hike 5 m/s (both resume above 0.7 m/s: a steep climb is slower than
    /// 1 m/s), ride 30 m/s (auto-pause below 1, resume above 2), other 60 m/s.
    package static func defaults(for activity: Activity) -> ActivityProfile {
        switch activity {
        case .run: return ActivityProfile(maxSpeed: 12)
        case .walk: return ActivityProfile(maxSpeed: 4, autoResumeSpeed: 0.7)
        case .hike: return ActivityProfile(maxSpeed: 5, autoResumeSpeed: 0.7)
        case .ride: return ActivityProfile(maxSpeed: 30, movingSpeed: 1.0, autoPauseSpeed: 1.0, autoResumeSpeed: 2.0)
        case .other: return ActivityProfile(maxSpeed: 60)
        }
    }
}
