/// Human-readable distances. The unit is chosen after rounding, so 999.6 m is
/// "1.0 km" rather than "1000 m".
///
/// Metric: whole metres below 1 km, kilometres with one decimal from 1 km,
/// whole kilometres from 100 km. Imperial: whole feet below 0.1 mi, miles with
/// one decimal from 0.1 mi, whole miles from 100 mi. Negative values count as 0;
/// NaN and infinities print "--".
public enum DistanceFormat {
    public static func string(metres: Double, units: UnitSystem) -> String {
        guard metres.isFinite else { return "--" }
        let metres = max(0, metres)
        switch units {
        case .metric:
            let wholeMetres = metres.rounded()
            if wholeMetres < 1000 { return "\(Int(wholeMetres)) m" }
            return largeUnit(metres / 1000, suffix: "km")
        case .imperial:
            let miles = metres / UnitSystem.metresPerMile
            let wholeFeet = (metres / UnitSystem.metresPerFoot).rounded()
            if wholeFeet < 528 { return "\(Int(wholeFeet)) ft" }
            return largeUnit(miles, suffix: "mi")
        }
    }

    /// One decimal below 100 units, whole units from 100 (decided after rounding).
    private static func largeUnit(_ value: Double, suffix: String) -> String {
        let tenths = (value * 10).rounded()
        if tenths < 1000 { return "\(NumberText.fixed(tenths / 10, decimals: 1)) \(suffix)" }
        return "\(NumberText.fixed(value, decimals: 0)) \(suffix)"
    }
}
