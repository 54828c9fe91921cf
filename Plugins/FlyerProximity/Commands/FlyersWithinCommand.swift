import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers within FILE.geojson`.
    struct Within: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "within",
            abstract: "List the flyers inside a GeoJSON polygon (exact WGS84, geodesic edges, holes), by id.",
            discussion: """
                FILE holds a GeoJSON Polygon or MultiPolygon, a Feature of one, or a FeatureCollection of them \
                (taken together). Flyers wholly inside are listed; with --intersects, those that touch it. \
                The same search as POST /v1/flyers/search.
                """
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(help: "A GeoJSON file with the polygon.")
        var file: String

        @Flag(help: "List flyers whose point or area touches the polygon, not only those wholly inside.")
        var intersects = false

        @Option(help: "Number of flyers to show.")
        var limit: Int?

        @Option(help: "Only flyers of this category.")
        var category: String?

        @OptionGroup var textSearch: TextSearchOption

        @Option(help: "Continue after a previous page (its next_cursor).")
        var cursor: String?

        @Flag(help: "Include expired and not-yet-valid flyers.")
        var all = false

        @Flag(help: "Print the response as JSON, as POST /v1/flyers/search does.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                let config = try store.loadConfig()
                let options = try store.flyerOptions(config)
                let limit = limit ?? options.defaultLimit
                guard (1...options.maxResults).contains(limit) else {
                    throw CommandFailure("--limit must be in 1...\(options.maxResults)", code: 2)
                }
                let query = try Self.query(
                    file: file, intersects: intersects, limit: limit, category: category, text: textSearch.text,
                    cursor: cursor, includeInactive: all)
                let search = NearbySearch(
                    presenter: FlyerPresenter(units: config?.units ?? .metric, mapStyle: options.mapStyle))
                let list: FlyerList
                do {
                    list = try await store.withFlyerStore { flyers in
                        try await search.respond(query, searcher: try flyers.searcherForOneQuery())
                    }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                if json {
                    print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(list), as: UTF8.self))
                } else {
                    print(Self.table(list))
                }
            }
        }

        private static func query(
            file: String, intersects: Bool, limit: Int, category: String?, text: String?, cursor: String?,
            includeInactive: Bool
        ) throws -> AreaQuery {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure("\(file): cannot be read; give the path of a GeoJSON file", code: 2)
            }
            do {
                let value: JSONValue
                do {
                    value = try JSONDecoder().decode(JSONValue.self, from: data)
                } catch {
                    throw AreaQueryError(field: "file", message: "is not JSON; give a GeoJSON Polygon or MultiPolygon")
                }
                return try AreaQuery.polygon(
                    try AreaRequest.polygons(value, field: "polygon"), intersects: intersects, limit: limit,
                    category: category, includeInactive: includeInactive, after: try cursor.map(AreaRequest.cursor),
                    text: try AreaRequest.text(text))
            } catch let error as AreaQueryError {
                let field = ["cursor", "q"].contains(error.field) ? "--\(error.field)" : "\(file): \(error.field)"
                throw CommandFailure("\(field): \(error.message)", code: error.field == "q" ? 2 : 1)
            }
        }

        static func table(_ list: FlyerList) -> String {
            guard !list.items.isEmpty else { return "no flyers found" }
            var lines = list.items.map { item in
                "\(item.title)\(item.category.map { " [\($0)]" } ?? "")  (\(item.id))"
            }
            if let next = list.nextCursor { lines.append("more: --cursor \(next)") }
            return lines.joined(separator: "\n")
        }
    }
}
