/// Durations, paces and speeds for people.
public enum TimeFormat {
    /// `h:mm:ss` from one hour, `m:ss` below; negative values count as 0, NaN prints "--:--".
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = Int(max(0, seconds).rounded())
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" }
        return "\(minutes):\(twoDigits(secs))"
    }

    /// Pace as `m:ss /km` or `m:ss /mi` from seconds per kilometre (`h:mm:ss` from an hour per unit, so a
    /// slow average such as a hike's still shows). Prints "--:--" (with the unit) when there is no pace: not
    /// finite or not positive (live figures pass infinity when standing still).
    public static func pace(secondsPerKilometre: Double, units: UnitSystem) -> String {
        let suffix = units == .metric ? "/km" : "/mi"
        guard secondsPerKilometre.isFinite, secondsPerKilometre > 0 else { return "--:-- \(suffix)" }
        let perUnit =
            units == .metric
            ? secondsPerKilometre
            : secondsPerKilometre * UnitSystem.metresPerMile / 1000
        let total = Int(perUnit.rounded())
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs)) \(suffix)" }
        return "\(minutes):\(twoDigits(secs)) \(suffix)"
    }

    /// Pace in seconds per kilometre for a speed in m/s (infinity when not moving).
    public static func secondsPerKilometre(speed: Double) -> Double {
        guard speed.isFinite, speed > 0 else { return .infinity }
        return 1000 / speed
    }

    /// Speed with one decimal in km/h or mph; negative counts as 0, NaN prints "--".
    public static func speed(metresPerSecond: Double, units: UnitSystem) -> String {
        guard metresPerSecond.isFinite else { return units == .metric ? "-- km/h" : "-- mph" }
        let speed = max(0, metresPerSecond)
        switch units {
        case .metric: return "\(NumberText.fixed(speed * 3.6, decimals: 1)) km/h"
        case .imperial: return "\(NumberText.fixed(speed * 3600 / UnitSystem.metresPerMile, decimals: 1)) mph"
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
