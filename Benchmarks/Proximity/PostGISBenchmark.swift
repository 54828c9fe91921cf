import FlyerProximity
import Foundation
import Logging
import MeridianCore
import PostgresNIO
import Workloads

/// `meridian-bench proximity --postgres-url URL`: the same generated flyers in PostGIS, with
/// Meridian's import (CSV read and validated, `COPY` straight into the empty table, one transaction) against the plain
/// `COPY` of the same rows a user writes (a table with a GiST index created afterwards), the stored search index
/// read back at start (in process, and `meridian serve` beside SpatiaLite's with `--meridian`), and "10 nearest
/// within 5 km" through Meridian with its in-memory cache, through Meridian without it (PostGIS
/// answers, exact re-rank), and with the plain PostGIS SQL a user writes on the same queries.
struct PostGISBenchmark {
    let settings: ProximityBenchmark.Settings
    let url: String
    let output: (String) -> Void

    func run() async throws {
        try FileManager.default.createDirectory(at: settings.directory, withIntermediateDirectories: true)
        let benchmark = ProximityBenchmark(settings: settings, output: output)
        let now = Date()
        let flyers = FlyerWorkload.benchmarkFlyers(count: settings.flyers, seed: settings.seed, now: now)
        var csv = Data()
        try CSVFlyers.write(flyers) { csv.append(contentsOf: $0.utf8) }
        output("generated \(flyers.count) flyers (seed \(settings.seed), the same as the SpatiaLite run)")

        let logger = Logger(label: "meridian-bench")
        let store = try await PostGISFlyerStore.open(url: url, logger: logger)
        defer { Task { await store.close() } }
        let peer = PlainPostGIS(client: store.client, logger: logger)
        try await peer.reset()

        let importStart = DispatchTime.now().uptimeNanoseconds
        let imported = try await store.write(from: try CSVFlyerReader(csv), mode: .create, progress: nil)
        let importSeconds = seconds(since: importStart)
        output(
            "import, Meridian (CSV read and validated → COPY straight into the empty table, spatial and category indexes built after, one transaction): \(fixed(importSeconds, 2)) s, \(fixed(Double(imported) / importSeconds, 0)) flyers/s"
        )
        // What `meridian flyers import` does after the import, timed apart and before the peer's load, so that the
        // peer has the server to itself.
        let indexStart = DispatchTime.now().uptimeNanoseconds
        try await store.finishBulkWrite()
        output(
            "after the import, as `meridian flyers import` does: search index built from the table and stored in PostgreSQL, the words' GIN index built beside it (CREATE INDEX CONCURRENTLY; the flyers are searchable and writable meanwhile): \(fixed(seconds(since: indexStart), 2)) s"
        )
        let plainStart = DispatchTime.now().uptimeNanoseconds
        try await peer.load(flyers)
        let plainSeconds = seconds(since: plainStart)
        output(
            "import, plain COPY of the same rows into a table, GiST index built afterwards: \(fixed(plainSeconds, 2)) s, \(fixed(Double(flyers.count) / plainSeconds, 0)) flyers/s"
        )
        output("Meridian import / plain COPY: \(fixed(plainSeconds / importSeconds, 2))× the flyers/s")

        let loadStart = DispatchTime.now().uptimeNanoseconds
        let catalog = FlyerCatalog(store: store, logger: logger)
        try await catalog.load()
        output(
            "cache load at start, in process (stored index read back): \(fixed(seconds(since: loadStart), 2)) s for \(catalog.count) flyers"
        )

        let centers = FlyerWorkload.benchmarkQueries(count: settings.queries, seed: settings.seed)
        let cached = try await benchmark.meridianSearch(try catalog.searcher(), centers, now: now)
        let cachedTiming = ProximityBenchmark.Timing(
            name: "(a) Meridian, in-memory cache", nanoseconds: cached.nanoseconds)
        output(cachedTiming.line)
        let uncached = try await benchmark.meridianSearch(PostGISSearch(store: store), centers, now: now)
        let uncachedTiming = ProximityBenchmark.Timing(
            name: "(b) Meridian, no cache (PostGIS)", nanoseconds: uncached.nanoseconds)
        output(uncachedTiming.line)
        output(
            "  (b) returned the same ids in the same order as (a) for \(percent(agreement(cached.ids, uncached.ids))) of queries"
        )
        let plain = try await peer.search(
            centers, radius: settings.radius, limit: settings.limit, now: now.timeIntervalSince1970)
        output(plain.timing.line)
        output(
            "  plain SQL returned the same ids in the same order as (a) for \(percent(agreement(cached.ids, plain.ids))) of queries"
        )
        output("(a) / plain SQL: \(ratio(cachedTiming, plain.timing))")
        output("(b) / plain SQL: \(ratio(uncachedTiming, plain.timing))")
        try await PolygonBenchmark(
            searcher: try catalog.searcher(), peer: peer, queries: settings.polygonQueries, seed: settings.seed,
            now: now,
            output: output
        ).run()
        try await TextBenchmark(
            cache: try catalog.searcher(), makeWordIndex: { catalog.makeTextIndex() },
            database: PostGISSearch(store: store), client: store.client,
            queries: min(1000, settings.queries), seed: settings.seed, now: now, output: output
        ).run()
        if let binary = settings.meridianBinary, let center = centers.first {
            try await startups(binary: binary, flyers: flyers, center: center, expected: cached.ids[0])
        }
    }

    /// `meridian serve` starting on PostGIS and, in the same run, on a SpatiaLite file holding the same flyers
    /// (imported and its index stored as `meridian flyers import` does): launch to the first correct answer, RSS then.
    private func startups(binary: String, flyers: [Flyer], center: Coordinate, expected: [String]) async throws {
        let host = settings.directory.appendingPathComponent("host.sqlite").path
        var postgis = StartupBenchmark(
            binary: binary, database: host, directory: settings.directory, center: center, radius: settings.radius,
            limit: settings.limit, expected: expected)
        postgis.flyersDatabase = url
        output("PostGIS:")
        try await postgis.run(output)
        let (spatialite, _, _) = try ProximityBenchmark.importFlyers(flyers, into: settings.directory)
        try SpatiaLiteFlyerStore(store: spatialite).storeSearchIndex()
        spatialite.close(logger: Logger(label: "meridian-bench"))
        output("SpatiaLite, the same flyers:")
        try await StartupBenchmark(
            binary: binary, database: spatialite.path, directory: settings.directory, center: center,
            radius: settings.radius, limit: settings.limit, expected: expected
        ).run(output)
    }

    private func ratio(_ meridian: ProximityBenchmark.Timing, _ other: ProximityBenchmark.Timing) -> String {
        "\(fixed(meridian.queriesPerSecond / other.queriesPerSecond, 2))× the queries/s, p99 \(fixed(other.p99 / meridian.p99, 2))× lower"
    }

    private func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func fixed(_ value: Double, _ decimals: Int) -> String {
        NumberText.fixed(value, decimals: decimals)
    }

    private func percent(_ share: Double) -> String {
        NumberText.fixed(share * 100, decimals: 2) + " %"
    }

    private func agreement(_ a: [[String]], _ b: [[String]]) -> Double {
        Double(zip(a, b).filter { $0 == $1 }.count) / Double(max(1, a.count))
    }
}

/// What a PostGIS user writes by hand: a table with a geography column, `COPY` into it, a GiST
/// index, and `ST_DWithin(…, true)` with `ORDER BY geog <-> point` for "nearest within".
struct PlainPostGIS {
    let client: PostgresClient
    let logger: Logger

    func reset() async throws {
        try await client.query("DROP TABLE IF EXISTS plain_flyers", logger: logger)
        try await client.query(
            """
            CREATE TABLE plain_flyers (id text PRIMARY KEY, title text NOT NULL, description text, address text, category text,
                                       url text, radius_m double precision, valid_from double precision,
                                       valid_until double precision, geog geography(Geometry, 4326) NOT NULL)
            """, logger: logger)
    }

    /// COPY of every flyer (the same rows Meridian imports, the geometry as EWKT), then the GiST index.
    func load(_ flyers: [Flyer]) async throws {
        try await client.withConnection { connection in
            try await connection.copyFrom(
                table: "plain_flyers",
                columns: [
                    "id", "title", "description", "address", "category", "url", "radius_m", "valid_from", "valid_until",
                    "geog"
                ],
                logger: logger
            ) { writer in
                var text = ""
                for (number, flyer) in flyers.enumerated() {
                    let from = flyer.validFrom.map { "\($0.timeIntervalSince1970)" } ?? "\\N"
                    let until = flyer.validUntil.map { "\($0.timeIntervalSince1970)" } ?? "\\N"
                    let fields = [flyer.description, flyer.address, flyer.category, flyer.url].map { $0 ?? "\\N" }
                    text +=
                        "\(flyer.id)\t\(flyer.title)\t\(fields.joined(separator: "\t"))\t\(flyer.radiusM)\t\(from)\t\(until)\t\(Self.wkt(flyer.geometry))\n"
                    if number % 4096 == 4095 {
                        try await writer.write(ByteBuffer(string: text))
                        text.removeAll(keepingCapacity: true)
                    }
                }
                if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
            }
        }
        try await client.query("CREATE INDEX plain_flyers_geog ON plain_flyers USING gist (geog)", logger: logger)
        try await client.query("ANALYZE plain_flyers", logger: logger)
    }

    /// `geometry` as EWKT.
    static func wkt(_ geometry: FlyerGeometry) -> String {
        func ring(_ points: [Coordinate]) -> String {
            "(" + points.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ",") + ")"
        }
        func polygon(_ rings: [[Coordinate]]) -> String { "(" + rings.map(ring).joined(separator: ",") + ")" }
        switch geometry {
        case .point(let point): return "SRID=4326;POINT(\(point.longitude) \(point.latitude))"
        case .polygon(let rings): return "SRID=4326;POLYGON" + polygon(rings)
        case .multiPolygon(let polygons):
            return "SRID=4326;MULTIPOLYGON(" + polygons.map(polygon).joined(separator: ",") + ")"
        }
    }

    func search(_ centers: [Coordinate], radius: Double, limit: Int, now: Double) async throws -> (
        timing: ProximityBenchmark.Timing, ids: [[String]]
    ) {
        try await client.withConnection { connection in
            var nanoseconds: [UInt64] = []
            var ids: [[String]] = []
            for center in centers {
                let start = DispatchTime.now().uptimeNanoseconds
                let query: PostgresQuery = """
                    SELECT id FROM plain_flyers
                    WHERE ST_DWithin(geog, ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography, \(radius), true)
                      AND (valid_from IS NULL OR valid_from <= \(now)) AND (valid_until IS NULL OR valid_until >= \(now))
                    ORDER BY geog <-> ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography, id
                    LIMIT \(limit)
                    """
                var found: [String] = []
                for try await id in try await connection.query(query, logger: logger).decode(String.self) {
                    found.append(id)
                }
                nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
                ids.append(found)
            }
            return (
                ProximityBenchmark.Timing(name: "(c) plain PostGIS SQL (ST_DWithin, <->)", nanoseconds: nanoseconds),
                ids
            )
        }
    }
}
