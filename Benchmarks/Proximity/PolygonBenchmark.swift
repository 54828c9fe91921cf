import FlyerProximity
import Foundation
import Logging
import MeridianCore
import PostgresNIO
import Workloads

/// `meridian-bench proximity --postgres-url URL`, second part: city-sized polygons of 200 geodesic vertices (3 to
/// 10 km across a city cluster), half "wholly within" and half "intersects", through Meridian's in-memory cache beside
/// the SQL a PostGIS user writes on `geography` with a GiST index (`ST_CoveredBy`, as PostGIS has no `ST_Within` for
/// geography, and `ST_Intersects`), on the same flyers in the same run. Each side answers the API's first page, the
/// 200 first ids in id order (PostGIS: `ORDER BY id LIMIT 200`), timed; then, untimed, every query's whole id set is
/// compared (Meridian paging through, PostGIS without a limit).
struct PolygonBenchmark {
    let searcher: any FlyerSearching
    let peer: PlainPostGIS
    let queries: Int
    let seed: UInt64
    let now: Date
    let output: (String) -> Void

    static let vertices = 200
    static let page = 200

    func run() async throws {
        let polygons = Self.polygons(count: queries, seed: seed)
        var meridian: [UInt64] = [], postgis: [UInt64] = []
        var firstPages: [[String]] = []
        for (number, ring) in polygons.enumerated() {
            let query = try AreaQuery.polygon([[ring]], intersects: number % 2 == 1, limit: Self.page, at: now)
            let start = DispatchTime.now().uptimeNanoseconds
            let page = try await searcher.area(query)
            meridian.append(DispatchTime.now().uptimeNanoseconds - start)
            firstPages.append(page.matches.map(\.flyer.id))
        }
        var samePages = 0
        for (number, ring) in polygons.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            let ids = try await peer.polygon(ring, intersects: number % 2 == 1, limit: Self.page, now: now)
            postgis.append(DispatchTime.now().uptimeNanoseconds - start)
            if ids == firstPages[number] { samePages += 1 }
        }
        let meridianTiming = ProximityBenchmark.Timing(
            name: "(d) Meridian polygon, in-memory cache", nanoseconds: meridian)
        let postgisTiming = ProximityBenchmark.Timing(
            name: "(e) PostGIS ST_CoveredBy/ST_Intersects", nanoseconds: postgis)
        output(
            "polygon queries: \(polygons.count) city-sized polygons of \(Self.vertices) vertices (half within, half intersects), first page of \(Self.page) by id"
        )
        output(meridianTiming.line)
        output(postgisTiming.line)
        output("  same first page (ids and order) for \(samePages) of \(polygons.count) queries")
        output(
            "(d) / (e): \(NumberText.fixed(meridianTiming.queriesPerSecond / postgisTiming.queriesPerSecond, decimals: 1))× the queries/s, p99 \(NumberText.fixed(postgisTiming.p99 / meridianTiming.p99, decimals: 1))× lower"
        )
        var sameSets = 0, hits = 0
        for (number, ring) in polygons.enumerated() {
            var query = try AreaQuery.polygon([[ring]], intersects: number % 2 == 1, limit: 5000, at: now)
            var ids: [String] = []
            while true {
                let page = try await searcher.area(query)
                ids += page.matches.map(\.flyer.id)
                guard page.hasMore, let last = page.matches.last else { break }
                query.after = last.position
            }
            let theirs = try await peer.polygon(ring, intersects: number % 2 == 1, limit: nil, now: now)
            hits += ids.count
            if Set(ids) == Set(theirs) && ids.count == theirs.count { sameSets += 1 }
        }
        output(
            "  same whole id set for \(sameSets) of \(polygons.count) queries (\(NumberText.fixed(Double(hits) / Double(max(1, polygons.count)), decimals: 0)) flyers per query on average)"
        )
    }

    /// `count` closed rings of `vertices` vertices around points of the city clusters, 3 to 10 km across, their
    /// radius varying by ±15 % around (star-shaped, so never self-crossing).
    static func polygons(count: Int, seed: UInt64) -> [[Coordinate]] {
        var workload = FlyerWorkload(.init(seed: seed &+ 2, uniformShare: 0))
        return (0..<count).map { _ in
            let center = workload.queryPoint()
            let radius = 1500 + 3500 * workload.unit()
            let phase = workload.unit() * 2 * .pi
            let ring = (0..<vertices).map { index -> Coordinate in
                let angle = Double(index) / Double(vertices) * 2 * .pi
                let distance = radius * (1 + 0.15 * sin(5 * angle + phase))
                return
                    (try? Geodesic.wgs84.direct(from: center, bearing: angle * 180 / .pi, distance: distance)
                    .destination)
                    ?? center
            }
            return ring + [ring[0]]
        }
    }
}

extension PlainPostGIS {
    /// The ids of the flyers covered by (or intersecting) `ring` as a `geography` polygon, valid at `now`, in id
    /// order, at most `limit`.
    func polygon(_ ring: [Coordinate], intersects: Bool, limit: Int?, now: Date) async throws -> [String] {
        let wkt = "SRID=4326;POLYGON((" + ring.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ",") + "))"
        let time = now.timeIntervalSince1970
        let test = intersects ? "ST_Intersects" : "ST_CoveredBy"
        let sql = """
            SELECT id FROM plain_flyers
            WHERE \(test)(geog, ST_GeogFromText($1))
              AND (valid_from IS NULL OR valid_from <= $2) AND (valid_until IS NULL OR valid_until >= $2)
            ORDER BY id\(limit.map { " LIMIT \($0)" } ?? "")
            """
        var bindings = PostgresBindings()
        bindings.append(wkt)
        bindings.append(time)
        var ids: [String] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }
}
