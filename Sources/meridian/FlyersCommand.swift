import ArgumentParser
import FlyerProximity
import Foundation
import MapLinks
import MeridianCore
import MeridianStore

/// `meridian flyers`: import, export, add, get, delete and search local flyers in the store.
struct FlyersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyers",
        abstract: "Manage and search local flyers (points and areas) in the SpatiaLite store.",
        discussion: """
            The store is --db, else MERIDIAN_DB, else store.path of the configuration (--config, MERIDIAN_CONFIG \
            or Config/meridian.yaml). Examples:
              meridian flyers import flyers.geojson
              meridian flyers near 48.8584,2.2945 --radius 2km --limit 5
              meridian flyers export --format csv > flyers.csv
            """,
        subcommands: [Import.self, Export.self, Add.self, Get.self, Delete.self, Near.self, Bench.self]
    )


    enum FileFormat: String, ExpressibleByArgument, CaseIterable {
        case geojson, csv

        static func guess(_ path: String) -> FileFormat? {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "csv": return .csv
            case "geojson", "json": return .geojson
            default: return nil
            }
        }
    }

    // MARK: import

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a GeoJSON FeatureCollection or a CSV file in one transaction (existing ids are replaced).",
            discussion: "CSV header: \(CSVFlyers.header.joined(separator: ",")). Any invalid feature or row rejects the whole file."
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(help: "The file to import (.geojson, .json or .csv).")
        var file: String

        @Option(help: "geojson or csv (default: from the file name).")
        var format: FileFormat?

        func run() async throws {
            try await reportingFailures {
                guard let format = format ?? FileFormat.guess(file) else {
                    throw CommandFailure("\(file): cannot tell the format from the name; add --format geojson or --format csv", code: 2)
                }
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure("\(file): cannot read the file; check the path and its permissions")
                }
                let start = DispatchTime.now().uptimeNanoseconds
                let source: any FlyerSource
                do throws(FlyerInputError) {
                    source = format == .csv ? try CSVFlyerReader(data) : FlyerArraySource(try GeoJSONFlyers.read(data))
                } catch {
                    throw inputFailure(error)
                }
                let repository = try store.repository()
                let progress = ProgressBar(label: "importing", large: data.count >= 1 << 20)
                let imported: Int
                do throws(FlyerStoreError) {
                    imported = try repository.write(from: source, mode: .upsert, progress: progress.map { bar in { bar.update($0) } })
                } catch {
                    progress?.finish()
                    if case .invalidInput(let input) = error { throw inputFailure(input) }
                    throw CommandFailure("\(file): \(error); nothing was imported")
                }
                progress?.finish()
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                print("imported \(imported) flyers from \(file) in \(NumberText.fixed(seconds, decimals: 2)) s")
            }
        }

        private func inputFailure(_ error: FlyerInputError) -> CommandFailure {
            var located = error
            located.file = file
            return CommandFailure("\(located); nothing was imported")
        }
    }

    // MARK: export

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write every flyer as GeoJSON or CSV (points only), in id order.")

        @OptionGroup var store: StoreLocationOptions

        @Option(help: "geojson or csv (default: from --output, else geojson).")
        var format: FileFormat?

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var output: String?

        func run() async throws {
            try await reportingFailures {
                let format = format ?? output.flatMap(FileFormat.guess) ?? .geojson
                let flyers: [Flyer]
                do {
                    flyers = try store.repository().all()
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                var text = ""
                let append = { (chunk: String) in text += chunk }
                switch format {
                case .geojson:
                    GeoJSONFlyers.write(flyers, to: append)
                case .csv:
                    do {
                        try CSVFlyers.write(flyers, to: append)
                    } catch let error as FlyerInputError {
                        throw CommandFailure(error.description)
                    }
                }
                if let output {
                    do {
                        try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                    } catch {
                        throw CommandFailure("\(output): cannot write the file: \(error.localizedDescription)")
                    }
                } else {
                    FileHandle.standardOutput.write(Data(text.utf8))
                }
            }
        }
    }

    // MARK: add, get, delete

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a point flyer (--at) or an area flyer (--geojson FILE holding one Feature).",
            discussion: "Example: meridian flyers add --title \"Lost cat\" --at 48.85,2.35 --category lost --valid-until 2025-07-01"
        )

        @OptionGroup var store: StoreLocationOptions

        @Option(help: "Title (required unless --geojson gives one).")
        var title: String?

        @Option(help: "Position as LAT,LON in decimal degrees.")
        var at: String?

        @Option(help: "A GeoJSON file with one Feature (Point, Polygon or MultiPolygon).")
        var geojson: String?

        @Option(help: "Id (default: a generated one).")
        var id: String?

        @Option var category: String?
        @Option var address: String?
        @Option var description: String?
        @Option var url: String?

        @Option(help: "Radius in metres for enter/exit events of a point flyer (default 100).")
        var radius: Double?

        @Option(help: "ISO 8601 date or date-time from which the flyer is valid.")
        var validFrom: String?

        @Option(help: "ISO 8601 date or date-time after which the flyer has expired.")
        var validUntil: String?

        func run() async throws {
            try await reportingFailures {
                let feature = try self.feature()
                let flyers: [Flyer]
                do {
                    flyers = try GeoJSONFlyers.read(Data(feature.utf8))
                } catch let error as FlyerInputError {
                    throw CommandFailure(error.description.replacingOccurrences(of: "properties.", with: "--").replacingOccurrences(of: "_", with: "-"), code: 2)
                }
                do {
                    try store.repository().write(flyers, mode: .create)
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                print(flyers.map(\.id).joined(separator: "\n"))
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
                object = ["type": "Feature", "geometry": ["type": "Point", "coordinates": [point.longitude, point.latitude]]]
            case (nil, let path?):
                guard let data = FileManager.default.contents(atPath: path),
                      let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { throw CommandFailure("\(path): cannot read a GeoJSON Feature from the file", code: 2) }
                object = parsed
            default:
                throw CommandFailure("give exactly one of --at LAT,LON or --geojson FILE", code: 2)
            }
            var properties = object["properties"] as? [String: Any] ?? [:]
            let given: [(String, Any?)] = [("title", title), ("category", category), ("address", address), ("description", description),
                                          ("url", url), ("radius_m", radius), ("valid_from", validFrom), ("valid_until", validUntil)]
            for case let (key, value?) in given { properties[key] = value }
            object["properties"] = properties
            if let id { object["id"] = id }
            let data = try JSONSerialization.data(withJSONObject: object)
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one flyer as a GeoJSON Feature.")

        @OptionGroup var store: StoreLocationOptions

        @Argument var id: String

        func run() async throws {
            try await reportingFailures {
                let flyer: Flyer?
                do {
                    flyer = try store.repository().flyer(id: id)
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                guard let flyer else { throw CommandFailure("no flyer with id '\(id)'") }
                print(GeoJSONFlyers.feature(flyer))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one flyer.")

        @OptionGroup var store: StoreLocationOptions

        @Argument var id: String

        func run() async throws {
            try await reportingFailures {
                let deleted: Bool
                do {
                    deleted = try store.repository().delete(id: id)
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                guard deleted else { throw CommandFailure("no flyer with id '\(id)'") }
                print("deleted \(id)")
            }
        }
    }

    // MARK: near

    struct Near: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List flyers nearest first, by exact WGS84 distance.",
            discussion: "Without LAT,LON there is no location: flyers are listed by title, without distances."
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(help: "Centre as LAT,LON in decimal degrees.")
        var center: String?

        @Option(help: "Only flyers within this distance: metres, or with a unit: 2km, 500m, 1.5mi, 300ft.")
        var radius: String?

        @Option(help: "Number of flyers to show.")
        var limit: Int?

        @Option(help: "Only flyers of this category.")
        var category: String?

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
                var point: Coordinate?
                if let center {
                    do {
                        point = try Coordinate(parsing: center)
                    } catch {
                        throw CommandFailure("LAT,LON: \(error)", code: 2)
                    }
                }
                let metres = try radius.map(Self.parseDistance) ?? options.defaultRadiusM
                let limit = limit ?? options.defaultLimit
                guard (1...options.maxResults).contains(limit) else {
                    throw CommandFailure("--limit must be in 1...\(options.maxResults)", code: 2)
                }
                let catalog: FlyerCatalog
                do {
                    catalog = try FlyerCatalog(store: try store.openStore(config))
                } catch let error as FlyerCatalogError {
                    throw CommandFailure(error.description)
                }
                let units = units ?? config?.units ?? .metric
                let search = NearbySearch(index: catalog.index, presenter: FlyerPresenter(units: units, mapStyle: options.mapStyle))
                let response: NearbyResponse
                do {
                    response = try search.respond(NearbyRequest(center: point, radius: metres, limit: limit, category: category,
                                                                cursor: cursor, includeInactive: all), position: nil)
                } catch let error as NearbyRequestError {
                    throw CommandFailure("\(error.parameter == "radius_m" ? "--radius" : "--\(error.parameter)") \(error.message)", code: 2)
                }
                if json {
                    print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(response), as: UTF8.self))
                } else {
                    print(Self.table(response))
                }
            }
        }

        static func table(_ response: NearbyResponse) -> String {
            guard !response.items.isEmpty else { return "no flyers found" }
            var lines: [String] = []
            if !response.locationAvailable { lines.append("no location given: flyers sorted by title, without distances") }
            for item in response.items {
                let distance = item.distanceText.map { $0.padding(toLength: 9, withPad: " ", startingAt: 0) } ?? ""
                let direction = item.bearing.map { Self.compass($0) } ?? (item.distanceM == nil ? "" : "here")
                var line = "\(distance)\(direction.padding(toLength: response.locationAvailable ? 5 : 0, withPad: " ", startingAt: 0))\(item.title)"
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

        /// Metres from `2km`, `500m`, `1.5mi`, `300ft` or a bare number of metres.
        static func parseDistance(_ text: String) throws -> Double {
            let units: [(String, Double)] = [("km", 1000), ("mi", UnitSystem.metresPerMile), ("ft", UnitSystem.metresPerFoot), ("m", 1)]
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
                if let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 {
                    return value * factor
                }
            }
            if let value = Double(trimmed), value.isFinite, value > 0 { return value }
            throw CommandFailure("--radius '\(text)' is not a distance; write e.g. 2km, 500m, 1.5mi or 300ft", code: 2)
        }
    }

    // MARK: bench

    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Benchmark proximity search against SpatiaLite SQL and Redis (used by scripts/bench-proximity).",
            shouldDisplay: false
        )

        @Option(help: "Number of flyers to generate.")
        var flyers = 1_000_000

        @Option(help: "Number of queries.")
        var queries = 10_000

        @Option(help: "Random seed.")
        var seed: UInt64 = 42

        @Option(help: "Run the SpatiaLite SQL baseline on the first N queries only (it takes ~0.1 s per query in dense clusters).")
        var sqlQueries = 300

        @Option(help: "Folder for the benchmark database (created and kept).")
        var directory: String

        @Option(help: "Port of a redis-server on 127.0.0.1 to compare with.")
        var redisPort: Int?

        func run() async throws {
            try await reportingFailures {
                var settings = ProximityBenchmark.Settings(directory: URL(fileURLWithPath: directory))
                settings.flyers = flyers
                settings.queries = queries
                settings.seed = seed
                settings.sqlQueries = sqlQueries
                settings.redisPort = redisPort
                try ProximityBenchmark(settings: settings) { print($0) }.run()
            }
        }
    }
}

/// A progress bar on standard error, shown only when it is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let label: String

    /// Nil when standard error is not a terminal or the job is too small to need one.
    init?(label: String, large: Bool) {
        guard isatty(STDERR_FILENO) == 1, large else { return nil }
        self.label = label
    }

    func update(_ progress: FlyerRepository.Progress) {
        let width = 30
        let filled = min(width, Int(Double(width) * progress.fractionRead))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(progress.fractionRead * 100)) % read, \(progress.written) flyers written".utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

extension StoreLocationOptions {
    /// The `flyers` consumer's options from the configuration (defaults without one).
    func flyerOptions(_ config: MeridianConfig?) throws -> FlyerOptions {
        guard let spec = config?.consumers.first(where: { $0.type == FlyerPlugin.registration.type }) else { return FlyerOptions() }
        do {
            return try FlyerOptions.decode(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }

    /// The flyers in the store this command uses.
    func repository() throws -> FlyerRepository {
        let config = try loadConfig()
        do {
            return try FlyerRepository(store: try openStore(config))
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        }
    }
}
