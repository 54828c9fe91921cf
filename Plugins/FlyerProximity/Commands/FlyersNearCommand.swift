import ArgumentParser
import Foundation
import Logging
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers near [LAT,LON]`.
    struct Near: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "near",
            abstract: "List flyers nearest first, by exact WGS84 distance.",
            discussion: "Without LAT,LON there is no location: flyers are listed by title, without distances."
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(parsing: .allUnrecognized, help: "Centre as LAT,LON in decimal degrees (negative values are fine).")
        var center: [String] = []

        @Option(help: "Only flyers within this distance: metres, or with a unit: 2km, 500m, 1.5mi, 300ft.")
        var radius: String?

        @Option(help: "Number of flyers to show.")
        var limit: Int?

        @Option(help: "Only flyers of this category.")
        var category: String?

        @OptionGroup var textSearch: TextSearchOption

        @Option(help: "metric or imperial (default: the configuration's units).")
        var units: UnitSystem?

        @Option(help: "Continue after a previous page (its next_cursor).")
        var cursor: String?

        @Flag(help: "Include expired and not-yet-valid flyers.")
        var all = false

        @Flag(help: "Print the response as JSON, as GET /v1/flyers/nearby does.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                let config = try store.loadConfig()
                let options = try store.flyerOptions(config)
                let point = try CoordinateArguments.parse(center, count: 0...1, expected: "at most one centre LAT,LON")
                    .first
                let metres = try radius.map { try Self.parseDistance($0, option: "--radius") } ?? options.defaultRadiusM
                let limit = limit ?? options.defaultLimit
                guard (1...options.maxResults).contains(limit) else {
                    throw CommandFailure("--limit must be in 1...\(options.maxResults)", code: 2)
                }
                let units = units ?? config?.units ?? .metric
                let search = NearbySearch(presenter: FlyerPresenter(units: units, mapStyle: options.mapStyle))
                let request = NearbyRequest(
                    center: point, radius: metres, limit: limit, category: category, cursor: cursor,
                    includeInactive: all, text: textSearch.text)
                let response: NearbyResponse
                do {
                    response = try await store.withFlyerStore { flyers in
                        try await search.respond(request, position: nil, searcher: try Self.searcher(flyers))
                    }
                } catch let error as NearbyRequestError {
                    throw CommandFailure(
                        "\(error.parameter == "radius_m" ? "--radius" : "--\(error.parameter)") \(error.message)",
                        code: 2)
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                if json {
                    print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(response), as: UTF8.self))
                } else {
                    print(Self.table(response))
                }
            }
        }

        /// PostGIS answers by itself; SpatiaLite through the stored search index, or by itself when there is none
        /// that can be used (one search does not pay for building it).
        private static func searcher(_ store: any FlyerStore) throws(FlyerStoreError) -> any FlyerSearching {
            try store.searcherForOneQuery()
        }

        static func table(_ response: NearbyResponse) -> String {
            guard !response.items.isEmpty else { return "no flyers found" }
            var lines: [String] = []
            if !response.locationAvailable {
                lines.append("no location given: flyers sorted by title, without distances")
            }
            for item in response.items {
                let distance = item.distanceText.map { $0.padding(toLength: 9, withPad: " ", startingAt: 0) } ?? ""
                let direction = item.bearing.map { Self.compass($0) } ?? (item.distanceM == nil ? "" : "here")
                var line =
                    "\(distance)\(direction.padding(toLength: response.locationAvailable ? 5 : 0, withPad: " ", startingAt: 0))\(item.title)"
                if let category = item.category { line += " [\(category)]" }
                line += "  (\(item.id))"
                lines.append(line)
            }
            if let next = response.nextCursor { lines.append("more: --cursor \(next)") }
            return lines.joined(separator: "\n")
        }

        static func compass(_ bearing: Double) -> String {
            let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
            return names[Int((bearing / 45).rounded()) % 8]
        }

        /// Metres from `2km`, `500m`, `1.5mi`, `300ft` or a bare number of metres, given as `option`.
        static func parseDistance(_ text: String, option: String) throws -> Double {
            try DistanceArgument.metres(text, option: option)
        }
    }
}
