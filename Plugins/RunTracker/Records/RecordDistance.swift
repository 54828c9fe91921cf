import MeridianCore

/// The distances personal records are kept for.
public enum RecordDistance: String, Sendable, Codable, CaseIterable, Comparable {
    case oneKilometre = "1k"
    case mile
    case fiveKilometres = "5k"
    case tenKilometres = "10k"
    case halfMarathon = "half_marathon"
    case marathon

    /// The distance in metres.
    public var metres: Double {
        switch self {
        case .oneKilometre: return 1000
        case .mile: return UnitSystem.metresPerMile
        case .fiveKilometres: return 5000
        case .tenKilometres: return 10_000
        case .halfMarathon: return 21_097.5
        case .marathon: return 42_195
        }
    }

    /// A label for people ("5 km", "Half marathon").
    public var label: String {
        switch self {
        case .oneKilometre: return "1 km"
        case .mile: return "1 mile"
        case .fiveKilometres: return "5 km"
        case .tenKilometres: return "10 km"
        case .halfMarathon: return "Half marathon"
        case .marathon: return "Marathon"
        }
    }

    public static func < (lhs: RecordDistance, rhs: RecordDistance) -> Bool { lhs.metres < rhs.metres }
}
