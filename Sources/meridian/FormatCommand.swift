import ArgumentParser
import MeridianCLI
import MeridianCore

/// `meridian format distance|pace|duration VALUE`: shows how Meridian formats a value.
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Format a distance (metres), pace (seconds per km) or duration (seconds) as Meridian shows it."
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case distance, pace, duration, speed
    }

    @Argument(help: "What VALUE is: distance (m), pace (s per km), duration (s) or speed (m/s).")
    var kind: Kind

    @Argument(parsing: .allUnrecognized, help: "The value in SI units.")
    var value: [String] = []

    @Option(help: "metric or imperial.")
    var units: UnitSystem = .metric

    func run() async throws {
        try await reportingFailures {
            guard value.count == 1, let number = Double(value[0]) else {
                throw CommandFailure("expected one number after '\(kind.rawValue)', got '\(value.joined(separator: " "))'", code: 2)
            }
            switch kind {
            case .distance: print(DistanceFormat.string(metres: number, units: units))
            case .pace: print(TimeFormat.pace(secondsPerKilometre: number, units: units))
            case .duration: print(TimeFormat.duration(seconds: number))
            case .speed: print(TimeFormat.speed(metresPerSecond: number, units: units))
            }
        }
    }
}
