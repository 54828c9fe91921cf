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

    @Flag(help: "Print {\"kind\", \"value\", \"units\", \"text\"} as JSON.")
    var json = false

    struct Report: Encodable {
        var kind: String
        /// Absent for NaN and infinities, which JSON cannot hold.
        var value: Double?
        var units: String
        var text: String
    }

    func run() async throws {
        try await reportingFailures {
            let value = try CoordinateArguments.positional(value)
            guard value.count == 1, let number = Double(value[0]) else {
                throw CommandFailure(
                    "expected one number after '\(kind.rawValue)', got '\(value.joined(separator: " "))'", code: 2)
            }
            // A negative distance, duration or speed means nothing (the formats would show 0); a pace of 0 or less is
            // the documented "--:--" (no pace).
            guard !(number < 0) || kind == .pace else {
                throw CommandFailure(
                    "\(kind.rawValue) \(value[0]) is negative; give a value of 0 or more in SI units", code: 2)
            }
            let text: String
            switch kind {
            case .distance: text = DistanceFormat.string(metres: number, units: units)
            case .pace: text = TimeFormat.pace(secondsPerKilometre: number, units: units)
            case .duration: text = TimeFormat.duration(seconds: number)
            case .speed: text = TimeFormat.speed(metresPerSecond: number, units: units)
            }
            print(
                json
                    ? try MeridianJSON.string(
                        Report(
                            kind: kind.rawValue, value: number.isFinite ? number : nil, units: units.rawValue,
                            text: text)) : text)
        }
    }
}
