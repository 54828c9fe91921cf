import MeridianCore

/// The readable one-line form of a fix used by `meridian replay` and `meridian gpsd watch`:
/// `2024-05-01T07:30:12.000Z 3D 48.858400,2.294500 alt 35 m 12.3 km/h 124.0° ±4 m 9 sats`.
public enum FixLine {
    public static func text(_ fix: Fix, units: UnitSystem) -> String {
        var parts = [ISO8601.string(from: fix.time)]
        switch fix.mode {
        case .noFix: parts.append("no fix")
        case .twoD: parts.append("2D")
        case .threeD: parts.append("3D")
        }
        if let coordinate = fix.coordinate {
            parts.append(
                "\(NumberText.fixed(coordinate.latitude, decimals: 6)),\(NumberText.fixed(coordinate.longitude, decimals: 6))"
            )
        }
        if let altitude = fix.altitude { parts.append("alt \(DistanceFormat.string(metres: altitude, units: units))") }
        if let speed = fix.speed { parts.append(TimeFormat.speed(metresPerSecond: speed, units: units)) }
        if let course = fix.course { parts.append("\(NumberText.fixed(course, decimals: 1))°") }
        if let accuracy = fix.horizontalAccuracy {
            parts.append("±\(DistanceFormat.string(metres: accuracy, units: units))")
        }
        if let satellites = fix.satellitesUsed { parts.append(Counted.string(satellites, "sat")) }
        if let quality = fix.quality, quality != .gps { parts.append(quality.rawValue) }
        return parts.joined(separator: " ")
    }
}
