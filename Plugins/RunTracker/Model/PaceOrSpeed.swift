import MeridianCore

/// How an activity's pace is shown: riders think in speed (km/h, mph), everyone else in pace (min/km, min/mi).
/// One rule for the command line, the pages and the pictures.
enum PaceOrSpeed {
    /// "speed" for a ride, "pace" for everything else.
    static func label(_ activity: Activity) -> String { activity == .ride ? "speed" : "pace" }

    /// `secondsPerKilometre` as a pace, or for a ride as the speed it means; "--:-- /km" or "-- km/h" without one.
    static func text(secondsPerKilometre pace: Double?, activity: Activity, units: UnitSystem) -> String {
        let pace = pace ?? .infinity
        guard activity == .ride else { return TimeFormat.pace(secondsPerKilometre: pace, units: units) }
        return TimeFormat.speed(metresPerSecond: pace.isFinite && pace > 0 ? 1000 / pace : .nan, units: units)
    }
}
