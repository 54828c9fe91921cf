import FlyerProximity
import Foundation
import GRDB
import Logging
import MeridianCore
import MeridianStore
import Workloads

/// `meridian-bench proximity`: imports generated flyers and times "10 nearest within 5 km"
/// with Meridian's search, with plain SpatiaLite SQL on the same file, and with Redis GEOSEARCH.
struct ProximityBenchmark {
    struct Settings: Sendable {
        var flyers = 1_000_000
        var queries = 10_000
        /// The SQL baseline (b) runs on the first this many queries only (~0.1 s each in dense clusters).
        var sqlQueries = 300
        /// Polygon queries (PostGIS run only, `PolygonBenchmark`).
        var polygonQueries = 1000
        var radius = 5000.0
        var limit = 10
        var seed: UInt64 = 42
        /// The folder for the database and CSV file (created; the caller removes it).
        var directory: URL
        /// Redis on 127.0.0.1 at this port; nil skips the Redis comparison.
        var redisPort: Int?
        /// A release `meridian` binary: its `serve` start-up is timed on the benchmark's database.
        var meridianBinary: String?

        init(directory: URL) {
            self.directory = directory
        }
    }

    /// Latency figures of one contender.
    struct Timing: Sendable {
        var name: String
        var p50: Double
        var p99: Double
        var queriesPerSecond: Double

        init(name: String, nanoseconds: [UInt64]) {
            self.name = name
            let sorted = nanoseconds.sorted()
            func percentile(_ share: Double) -> Double {
                Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]) / 1e6
            }
            p50 = percentile(0.50)
            p99 = percentile(0.99)
            queriesPerSecond = Double(sorted.count) / (Double(sorted.reduce(0, +)) / 1e9)
        }

        var line: String {
            "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) p50 \(NumberText.fixed(p50 * 1000, decimals: 1)) µs  p99 \(NumberText.fixed(p99 * 1000, decimals: 1)) µs  \(NumberText.fixed(queriesPerSecond, decimals: 0)) queries/s"
        }
    }

    let settings: Settings
    /// Receives each line of the report as it is produced.
    let output: (String) -> Void

    init(settings: Settings, output: @escaping (String) -> Void) {
        self.settings = settings
        self.output = output
    }

    func run() async throws {
        let settings = self.settings
        try FileManager.default.createDirectory(at: settings.directory, withIntermediateDirectories: true)
        let now = Date()
        let flyers = FlyerWorkload.benchmarkFlyers(count: settings.flyers, seed: settings.seed, now: now)
        output(
            "generated \(flyers.count) flyers (seed \(settings.seed), 80 % clustered around \(16) cities, 20 % uniform within ±85°)"
        )
        let (store, imported, importSeconds) = try Self.importFlyers(flyers, into: settings.directory)
        output(
            "import (CSV → SpatiaLite, one transaction, reading and writing overlapped): \(NumberText.fixed(importSeconds, decimals: 2)) s, \(NumberText.fixed(Double(imported) / importSeconds, decimals: 0)) flyers/s"
        )

        let loadStart = DispatchTime.now().uptimeNanoseconds
        let catalog = try FlyerCatalog(loading: try SpatiaLiteFlyerStore(store: store))
        let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9
        output(
            "search index built and stored after the import: \(NumberText.fixed(loadSeconds, decimals: 2)) s for \(catalog.count) flyers"
        )

        let centers = FlyerWorkload.benchmarkQueries(count: settings.queries, seed: settings.seed)

        let meridian = try await meridianSearch(try catalog.searcher(), centers, now: now)
        output(meridian.timing.line + "  (all \(centers.count) queries)")
        let subset = min(settings.sqlQueries, centers.count)
        let sql = try sqlSearch(store, Array(centers.prefix(subset)), now: now.timeIntervalSince1970)
        let meridianOnSubset = Timing(
            name: "(a) on the same \(subset) queries", nanoseconds: Array(meridian.nanoseconds.prefix(subset)))
        output(sql.timing.line + "  (SUBSET: the first \(subset) of \(centers.count) queries)")
        output(meridianOnSubset.line)
        output(
            "  SpatiaLite returned the same ids in the same order for \(percent(agreement(Array(meridian.ids.prefix(subset)), sql.ids))) of those \(subset) queries"
        )
        output("Meridian / (b), on the same \(subset) queries: \(ratios(meridianOnSubset, sql.timing))")
        if let port = settings.redisPort {
            let redis = try redisSearch(port: port, flyers: flyers, centers)
            output(redis.timing.line + "  (all \(centers.count) queries)")
            output(
                "  Redis (haversine, 52-bit geohash) returned the same ids in the same order for \(percent(agreement(meridian.ids, redis.ids))) of queries"
            )
            output("Meridian / (c), on all \(centers.count) queries: \(ratios(meridian.timing, redis.timing))")
        }
        let hits = meridian.ids.reduce(0) { $0 + $1.count }
        output(
            "average results per query: \(NumberText.fixed(Double(hits) / Double(max(1, centers.count)), decimals: 2))")
        if let binary = settings.meridianBinary, let center = centers.first {
            // The service gets the file to itself, as after a restart.
            store.close(logger: Logger(label: "meridian-bench"))
            let startup = StartupBenchmark(
                binary: binary, database: store.path, directory: settings.directory,
                center: center, radius: settings.radius, limit: settings.limit, expected: meridian.ids[0])
            try await startup.run(output)
        }
    }

    /// Writes `flyers` as CSV in `directory` and imports the file into `bench.sqlite` there (read, validated,
    /// written in one transaction); returns the store, the number imported and the import's seconds.
    static func importFlyers(_ flyers: [Flyer], into directory: URL) throws -> (
        store: Store, imported: Int, seconds: Double
    ) {
        let csvURL = directory.appendingPathComponent("flyers.csv")
        var csv = Data()
        try CSVFlyers.write(flyers) { csv.append(contentsOf: $0.utf8) }
        try csv.write(to: csvURL)
        let store = try Store.open(path: directory.appendingPathComponent("bench.sqlite").path)
        let repository = try SpatiaLiteFlyerStore(store: store)
        let importStart = DispatchTime.now().uptimeNanoseconds
        let imported = try repository.write(from: try CSVFlyerReader(try Data(contentsOf: csvURL)), mode: .create)
        return (store, imported, Double(DispatchTime.now().uptimeNanoseconds - importStart) / 1e9)
    }

    private func ratios(_ meridian: Timing, _ other: Timing) -> String {
        "\(NumberText.fixed(meridian.queriesPerSecond / other.queriesPerSecond, decimals: 1))× the queries/s, p99 \(NumberText.fixed(other.p99 / meridian.p99, decimals: 1))× lower"
    }

    private func percent(_ share: Double) -> String {
        NumberText.fixed(share * 100, decimals: 2) + " %"
    }

    private func agreement(_ a: [[String]], _ b: [[String]]) -> Double {
        Double(zip(a, b).filter { $0 == $1 }.count) / Double(max(1, a.count))
    }

    /// Meridian's full nearby answer from `searcher` (the in-memory index, or PostGIS without it).
    func meridianSearch(_ searcher: any FlyerSearching, _ centers: [Coordinate], now: Date) async throws -> (
        timing: Timing, nanoseconds: [UInt64], ids: [[String]]
    ) {
        let search = NearbySearch(presenter: FlyerPresenter(units: .metric, mapStyle: .apple))
        var nanoseconds: [UInt64] = []
        var ids: [[String]] = []
        nanoseconds.reserveCapacity(centers.count)
        for center in centers {
            let start = DispatchTime.now().uptimeNanoseconds
            let response = try await search.respond(
                NearbyRequest(center: center, radius: settings.radius, limit: settings.limit, at: now),
                position: nil, searcher: searcher)
            nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
            ids.append(response.items.map(\.id))
        }
        return (Timing(name: "(a) Meridian nearby (exact WGS84)", nanoseconds: nanoseconds), nanoseconds, ids)
    }

    /// What a knowledgeable SpatiaLite user writes: the R*Tree queried directly on a geodesic
    /// bounding box (a UNION ALL of two boxes across ±180°) driving the join, `ST_Distance(…, 1)` on the ellipsoid,
    /// validity filtered in SQL, ORDER BY distance then id.
    private func sqlSearch(_ store: Store, _ centers: [Coordinate], now: Double) throws -> (
        timing: Timing, ids: [[String]]
    ) {
        let box = "SELECT pkid FROM idx_flyers_geom WHERE xmin <= ? AND xmax >= ? AND ymin <= ? AND ymax >= ?"
        func sql(boxes: Int) -> String {
            """
            SELECT f.id, ST_Distance(f.geom, MakePoint(?, ?, 4326), 1) AS d
            FROM (\(Array(repeating: box, count: boxes).joined(separator: " UNION ALL "))) AS r
            CROSS JOIN flyers AS f ON f.ROWID = r.pkid
            WHERE (f.valid_from IS NULL OR f.valid_from <= ?) AND (f.valid_until IS NULL OR f.valid_until >= ?)
              AND d <= ?
            ORDER BY d, f.id LIMIT ?
            """
        }
        return try store.database.read { db in
            let statements = [try db.makeStatement(sql: sql(boxes: 1)), try db.makeStatement(sql: sql(boxes: 2))]
            var nanoseconds: [UInt64] = []
            var ids: [[String]] = []
            for center in centers {
                let start = DispatchTime.now().uptimeNanoseconds
                let bounds = Geodesic.wgs84.boundingBox(center: center, radius: settings.radius)
                var arguments: [(any DatabaseValueConvertible)?] = [center.longitude, center.latitude]
                for range in bounds.longitudeRanges {
                    arguments += [range.upperBound, range.lowerBound, bounds.maxLatitude, bounds.minLatitude]
                }
                arguments += [now, now, settings.radius, settings.limit]
                let statement = statements[bounds.longitudeRanges.count - 1]
                let rows = try Row.fetchAll(statement, arguments: StatementArguments(arguments))
                nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
                ids.append(rows.map { $0[0] as String? ?? "" })
            }
            return (Timing(name: "(b) SpatiaLite SQL (R*Tree + ST_Distance)", nanoseconds: nanoseconds), ids)
        }
    }

    private func redisSearch(port: Int, flyers: [Flyer], _ centers: [Coordinate]) throws -> (
        timing: Timing, ids: [[String]]
    ) {
        let redis = try RedisClient(port: port)
        let loadSeconds = try redis.addFlyers(flyers)
        output(
            "Redis GEOADD (pipelined, 1000 per batch): \(NumberText.fixed(Double(flyers.count) / loadSeconds, decimals: 0)) points/s"
        )
        let kilometres = NumberText.trimmed(settings.radius / 1000, decimals: 3)
        var nanoseconds: [UInt64] = []
        var ids: [[String]] = []
        for center in centers {
            let start = DispatchTime.now().uptimeNanoseconds
            let reply = try redis.command([
                "GEOSEARCH", "flyers", "FROMLONLAT", "\(center.longitude)", "\(center.latitude)",
                "BYRADIUS", kilometres, "km", "ASC", "COUNT", "\(settings.limit)"
            ])
            nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
            guard case .array(let members?) = reply else {
                throw RedisClient.Failure(description: "GEOSEARCH answered \(reply)")
            }
            ids.append(members.compactMap { if case .bulk(let id?) = $0 { return id } else { return nil } })
        }
        return (Timing(name: "(c) Redis GEOSEARCH (haversine)", nanoseconds: nanoseconds), ids)
    }
}
