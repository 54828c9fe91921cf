import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian distance LAT,LON LAT,LON`: the WGS84 geodesic between two points.
struct DistanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distance",
        abstract: "Geodesic distance and bearings between two points (WGS84, Karney).",
        discussion:
            "Points are LAT,LON in decimal degrees; negative values are fine: meridian distance -33.86,151.21 51.5,-0.12"
    )

    @Argument(parsing: .allUnrecognized, help: "Two points, each LAT,LON.")
    var points: [String] = []

    @Flag(help: "Print {\"meters\", \"initial_bearing\", \"final_bearing\"} as JSON.")
    var json = false

    @Option(help: "Units for the readable output: metric or imperial.")
    var units: UnitSystem = .metric

    struct Result: Encodable {
        var meters: Double
        var initialBearing: Double
        var finalBearing: Double
    }

    func run() async throws {
        try await reportingFailures {
            let coordinates = try CoordinateArguments.parse(
                points, count: 2...2, expected: "exactly two points LAT,LON LAT,LON")
            let result = Geodesic.wgs84.inverse(from: coordinates[0], to: coordinates[1])
            if json {
                print(
                    try MeridianJSON.string(
                        Result(
                            meters: result.distance, initialBearing: result.initialBearing,
                            finalBearing: result.finalBearing)))
            } else {
                print(
                    "\(DistanceFormat.string(metres: result.distance, units: units))"
                        + " (\(NumberText.fixed(result.distance, decimals: 3)) m),"
                        + " initial bearing \(NumberText.fixed(result.initialBearing, decimals: 2))°,"
                        + " final bearing \(NumberText.fixed(result.finalBearing, decimals: 2))°")
            }
        }
    }
}
