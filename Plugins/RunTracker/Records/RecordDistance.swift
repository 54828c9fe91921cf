import MeridianCore

/// The records kept: the fastest time over a distance, or the longest activity.
package enum RecordDistance: String, Sendable, Codable, CaseIterable, Comparable {
    case oneKilometre = "1k"
    case mile
    case fiveKilometres = "5k"
    case tenKilometres = "10k"
    case twentyKilometres = "20k"
    case halfMarathon = "half_marathon"
    case fortyKilometres = "40k"
    case marathon
    case hundredKilometres = "100k"
    /// The longest activity (its distance is the run's own).
    case longest

    /// The distance in metres; infinity for `longest`, whose distance is each run's own.
    package var metres: Double {
        switch self {
        case .oneKilometre: return 1000
        case .mile: return UnitSystem.metresPerMile
        case .fiveKilometres: return 5000
        case .tenKilometres: return 10_000
        case .twentyKilometres: return 20_000
        case .halfMarathon: return 21_097.5
        case .fortyKilometres: return 40_000
        case .marathon: return 42_195
        case .hundredKilometres: return 100_000
        case .longest: return .infinity
        }
    }

    /// A label for people ("5 km", "Half marathon").
    package var label: String {
        switch self {
        case .oneKilometre: return "1 km"
        case .mile: return "1 mile"
        case .fiveKilometres: return "5 km"
        case .tenKilometres: return "10 km"
        case .twentyKilometres: return "20 km"
        case .halfMarathon: return "Half marathon"
        case .fortyKilometres: return "40 km"
        case .marathon: return "Marathon"
        case .hundredKilometres: return "100 km"
        case .longest: return "Longest"
        }
    }

    /// The records kept for each activity: runs the running distances, rides the longest and 10, 20, 40 and 100 km,
    /// hikes the longest; walks and other activities none.
    package static func kept(for activity: Activity) -> [RecordDistance] {
        switch activity {
        case .run: return [.oneKilometre, .mile, .fiveKilometres, .tenKilometres, .halfMarathon, .marathon]
        case .ride: return [.tenKilometres, .twentyKilometres, .fortyKilometres, .hundredKilometres, .longest]
        case .hike: return [.longest]
        case .walk, .other: return []
        }
    }

    package static func < (lhs: RecordDistance, rhs: RecordDistance) -> Bool { lhs.metres < rhs.metres }
}
