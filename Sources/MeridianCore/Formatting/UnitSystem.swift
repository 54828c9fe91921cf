/// The measurement system used for everything a user sees.
public enum UnitSystem: String, Sendable, Codable, CaseIterable {
    case metric
    case imperial

    /// Metres in one international foot.
    public static let metresPerFoot = 0.3048
    /// Metres in one international mile.
    public static let metresPerMile = 1609.344
}
