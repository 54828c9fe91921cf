import Foundation
import MeridianCore

/// A pair of shoes or a bike, and the distance it has done: its start distance (what it had done before Meridian
/// knew it) plus the distances of the saved runs it is assigned to (deleted runs leave out theirs until restored).
/// JSON: `id`, `name`, `activity`, `kind` (`bike` for rides, else `shoes`), `start_distance_m`, `retire_distance_m`
/// (`null`: none), `default` (new runs of its activity get it), `retired_at`, `created_at`, `distance_m`, `run_count`,
/// `past_retirement`, `remaining_m` (`null` without a retirement distance).
package struct Gear: Sendable, Codable, Equatable {
    package var id: Int64
    package var name: String
    package var activity: Activity
    package var kind: String
    package var startDistanceM: Double
    @NullWhenAbsent package var retireDistanceM: Double?
    package var `default`: Bool
    @NullWhenAbsent package var retiredAt: Date?
    package var createdAt: Date
    package var distanceM: Double
    package var runCount: Int
    package var pastRetirement: Bool
    @NullWhenAbsent package var remainingM: Double?

    /// `bike` for rides, `shoes` for runs, walks, hikes and other activities.
    static func kind(_ activity: Activity) -> String { activity == .ride ? "bike" : "shoes" }
}

/// The gear of one run: the item, its distance once this run is counted (its start distance, the saved runs before
/// this one and this one), and whether this run took it past its retirement distance.
/// JSON: `{"gear", "distance_after_m", "passed_retirement"}`.
package struct RunGear: Sendable, Codable, Equatable {
    package var gear: Gear
    package var distanceAfterM: Double
    package var passedRetirement: Bool

    /// For people: "Pegasus 40 (shoes) · 812 km".
    package func summary(units: UnitSystem) -> String {
        "\(gear.name) (\(gear.kind)) · \(DistanceFormat.string(metres: distanceAfterM, units: units))"
    }

    /// For people: "Pegasus 40 (shoes) · 812 km · this run took it past its retirement distance of 800 km".
    package func text(units: UnitSystem) -> String {
        var text = summary(units: units)
        if let retire = gear.retireDistanceM {
            let limit = DistanceFormat.string(metres: retire, units: units)
            if passedRetirement {
                text += " · this run took it past its retirement distance of \(limit)"
            } else if distanceAfterM >= retire {
                text += " · past its retirement distance of \(limit)"
            }
        }
        if gear.retiredAt != nil { text += " · retired" }
        return text
    }
}
