import Foundation
import MeridianCore
import MeridianWeb

/// A run's figures as the pages show them, in the configured units: rides by speed, everything else by pace.
struct RunFigures {
    let units: UnitSystem

    func distance(_ metres: Double) -> String { DistanceFormat.string(metres: metres, units: units) }
    func duration(_ seconds: Double) -> String { TimeFormat.duration(seconds: seconds) }
    func pace(_ secondsPerKilometre: Double?) -> String {
        TimeFormat.pace(secondsPerKilometre: secondsPerKilometre ?? .infinity, units: units)
    }
    func speed(_ metresPerSecond: Double) -> String { TimeFormat.speed(metresPerSecond: metresPerSecond, units: units) }

    /// "Pace" and the average pace, or "Speed" and the average speed over the timer time for a ride.
    func paceOrSpeed(_ run: RunSummary) -> (label: String, value: String) {
        (
            PaceOrSpeed.label(run.activity).capitalized,
            PaceOrSpeed.text(secondsPerKilometre: run.averagePace, activity: run.activity, units: units)
        )
    }

    /// "Run", "Ride"… for an activity.
    static func label(_ activity: Activity) -> String {
        activity.rawValue.prefix(1).uppercased() + activity.rawValue.dropFirst()
    }

    /// The activities as select options, with an "All activities" entry first when `all` is given.
    static func options(selected: Activity?, all: String? = nil) -> [Option] {
        (all.map { [Option(value: "", label: $0, selected: selected == nil)] } ?? [])
            + Activity.allCases.map { Option(value: $0.rawValue, label: label($0), selected: $0 == selected) }
    }

    struct Option {
        var value: String
        var label: String
        var selected: Bool
    }
}
