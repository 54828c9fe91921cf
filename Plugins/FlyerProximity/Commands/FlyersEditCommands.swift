import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a point flyer (--at) or an area flyer (--geojson FILE holding one Feature).",
            discussion:
                "Example: meridian flyers add --title \"Lost cat\" --at 48.85,2.35 --category lost --valid-until 2025-07-01"
        )

        @OptionGroup var store: StoreLocationOptions

        @Option(help: "Title (required unless --geojson gives one).")
        var title: String?

        @Option(parsing: .unconditional, help: "Position as LAT,LON in decimal degrees (negative values are fine).")
        var at: String?

        @Option(help: "A GeoJSON file with one Feature (Point, Polygon or MultiPolygon).")
        var geojson: String?

        @Option(help: "Id (default: a generated one).")
        var id: String?

        @Option var category: String?
        @Option var address: String?
        @Option var description: String?
        @Option var url: String?

        @Option(
            help:
                "Radius for enter/exit events of a point flyer: metres, or with a unit: 150m, 0.2km, 500ft (default 100 m)."
        )
        var radius: String?

        @Option(help: "ISO 8601 date or date-time from which the flyer is valid.")
        var validFrom: String?

        @Option(help: "ISO 8601 date or date-time after which the flyer has expired.")
        var validUntil: String?

        @Flag(help: "Print the stored flyer as a GeoJSON Feature (as flyers get does) instead of its id.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                let feature = try self.feature()
                let flyers: [Flyer]
                do {
                    flyers = try GeoJSONFlyers.read(Data(feature.utf8), timeZone: try store.timeZone())
                } catch let error as FlyerInputError {
                    throw CommandFailure(
                        error.description.replacingOccurrences(of: "properties.", with: "--").replacingOccurrences(
                            of: "_", with: "-"), code: 2)
                }
                do {
                    try await store.withFlyerStore(creating: true) { try await $0.write(flyers, mode: .create) }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                print(
                    json
                        ? flyers.map(GeoJSONFlyers.feature).joined(separator: "\n")
                        : flyers.map(\.id).joined(separator: "\n"))
            }
        }

        /// The flyer as a GeoJSON Feature, so the command line is validated like the API.
        private func feature() throws -> String {
            var object: [String: Any]
            switch (at, geojson) {
            case (let text?, nil):
                let point: Coordinate
                do {
                    point = try Coordinate(parsing: text)
                } catch {
                    throw CommandFailure("--at: \(error)", code: 2)
                }
                object = [
                    "type": "Feature", "geometry": ["type": "Point", "coordinates": [point.longitude, point.latitude]]
                ]
            case (nil, let path?):
                guard let data = FileManager.default.contents(atPath: path),
                    let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { throw CommandFailure("\(path): cannot read a GeoJSON Feature from the file", code: 2) }
                object = parsed
            default:
                throw CommandFailure("give exactly one of --at LAT,LON or --geojson FILE", code: 2)
            }
            var properties = object["properties"] as? [String: Any] ?? [:]
            let metres = try radius.map { text in try Near.parseDistance(text, option: "--radius") }
            let given: [(String, Any?)] = [
                ("title", title), ("category", category), ("address", address), ("description", description),
                ("url", url), ("radius_m", metres), ("valid_from", validFrom), ("valid_until", validUntil)
            ]
            for case (let key, let value?) in given { properties[key] = value }
            object["properties"] = properties
            if let id { object["id"] = id }
            let data = try JSONSerialization.data(withJSONObject: object)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// `meridian flyers get ID`.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print one flyer as a GeoJSON Feature.")

        @OptionGroup var store: StoreLocationOptions

        @Argument var id: String

        func run() async throws {
            try await reportingFailures {
                let flyer: Flyer?
                do {
                    flyer = try await store.withFlyerStore { try await $0.flyer(id: id) }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                guard let flyer else { throw CommandFailure("no flyer with id '\(id)'") }
                print(GeoJSONFlyers.feature(flyer))
            }
        }
    }

    /// `meridian flyers delete ID`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one flyer.")

        @OptionGroup var store: StoreLocationOptions

        @Argument var id: String

        @Flag(help: "Print {\"deleted\": ID} as JSON.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                let deleted: Bool
                do {
                    deleted = try await store.withFlyerStore { try await $0.delete(id: id) }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                guard deleted else { throw CommandFailure("no flyer with id '\(id)'") }
                print(json ? try MeridianJSON.string(["deleted": id]) : "deleted \(id)")
            }
        }
    }
}
