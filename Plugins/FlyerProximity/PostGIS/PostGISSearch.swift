import Foundation
import MeridianCore
import PostgresNIO

/// Searches answered by PostGIS itself, for an instance whose cache is not warm. Candidates come
/// from the spatial indexes; every one is then measured exactly (WGS84, Karney) as the cache does,
/// so answers are the same.
///
/// - Points: `ST_DWithin` on the sphere with the radius widened by 0.57 %, more than the largest
///   ratio between a great-circle distance and the ellipsoidal one (the radii of curvature of WGS84
///   lie within 0.56 % of the sphere's mean radius), so no point within the radius is missed.
/// - Areas: their `search_boxes` overlap the query's latitude/longitude box (`Geodesic.boundingBox`),
///   the same test the cache's grid makes.
/// - With a radius, one statement: the `limit + 1` nearest points by `ORDER BY geog <-> point`
///   bound how far the answer can reach (their largest sphere distance, widened by 1.03 % for the
///   ratio both ways), and every point within that bound plus every area near the radius is
///   measured. Only when a cursor leaves too few is everything within the radius read.
/// - Without a radius: the `limit + 1` nearest by `ORDER BY geog <-> point` give a radius that
///   holds at least that many flyers, measured exactly; then a search within it (widened if a
///   cursor leaves too few).
/// - A text query (`q`): the `tsvector` of each flyer's words (`PostGISSchema.wordsExpression`) must match every
///   query word as a prefix (`'caf':* & 'lum':*`); both stores hold the words Meridian made, so both find the same.
package struct PostGISSearch: FlyerSearching {
    let store: PostGISFlyerStore

    package init(store: PostGISFlyerStore) {
        self.store = store
    }

    /// The widening of the sphere radius (see above) and one metre for rounding.
    static let sphereFactor = 1.0057
    /// From the sphere distance of a point to a sphere radius holding every point no farther on the
    /// ellipsoid: at most 1.0045 times farther there, then widened by `sphereFactor`.
    private static let boundFactor = 1.0103
    static let worldRadius = 20_100_000.0

    package func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches {
        let keep = max(1, query.limit) + 1
        var matches: [NearbyMatch]
        if let radius = query.radius {
            matches = try await bounded(radius, query, keep: keep)
            if matches.count < keep { matches = try await within(radius, query) }
        } else {
            var filter = Filter(query.category, at: query.at, includeInactive: query.includeInactive, text: query.text)
            let point = filter.bind(query.center)
            let nearest = try await store.flyers(
                filter.query(
                    "SELECT \(PostGISRows.selectColumns) FROM flyers WHERE \(filter.conditions) ORDER BY geog <-> \(point) LIMIT \(keep)"
                ))
            guard nearest.count == keep else {
                return Self.page(
                    nearest.compactMap { NearbyMatch($0, from: query.center, within: .infinity, after: query.after) },
                    query)
            }
            var radius =
                nearest.compactMap { NearbyMatch($0, from: query.center, within: .infinity, after: nil)?.distance }
                .max() ?? 1000
            while true {
                matches = try await within(radius, query)
                if matches.count >= keep || radius >= Self.worldRadius { break }
                radius = max(radius * 4, 1000)
            }
        }
        return Self.page(matches, query)
    }

    /// Every flyer within `radius` of the query's centre that passes its filters and cursor, measured exactly.
    private func within(_ radius: Double, _ query: NearbyQuery) async throws(FlyerStoreError) -> [NearbyMatch] {
        var filter = Filter(query.category, at: query.at, includeInactive: query.includeInactive, text: query.text)
        let point = filter.bind(query.center)
        let sphereRadius = filter.bind(radius * Self.sphereFactor + 1)
        let areas = Self.areas(radius, query, &filter)
        let spatial = "(search_boxes IS NULL AND ST_DWithin(geog, \(point), \(sphereRadius), false))" + areas
        let candidates = try await store.flyers(
            filter.query(
                "SELECT \(PostGISRows.selectColumns) FROM flyers WHERE (\(spatial)) AND \(filter.conditions)"))
        return candidates.compactMap { flyer in
            // The words PostgreSQL matched are checked as the cache checks them (`TextQuery.matches`).
            guard query.text?.matches(flyer) ?? true else { return nil }
            return NearbyMatch(flyer, from: query.center, within: radius, after: query.after)
        }
    }

    /// The flyers that can be among the `keep` nearest within `radius` (see the type's notes), measured
    /// exactly; fewer than `keep` after the cursor means the caller must read everything within the radius.
    private func bounded(_ radius: Double, _ query: NearbyQuery, keep: Int) async throws(FlyerStoreError)
        -> [NearbyMatch]
    {
        var filter = Filter(query.category, at: query.at, includeInactive: query.includeInactive, text: query.text)
        let point = filter.bind(query.center)
        let sphereRadius = filter.bind(radius * Self.sphereFactor + 1)
        let count = filter.bind(keep)
        let areas = Self.areas(radius, query, &filter)
        let sql = """
            WITH nearest AS (
                SELECT ST_Distance(geog, \(point), false) AS sphere FROM flyers
                WHERE search_boxes IS NULL AND ST_DWithin(geog, \(point), \(sphereRadius), false) AND \(filter.conditions)
                ORDER BY geog <-> \(point) LIMIT \(count)),
            bound AS (SELECT CASE WHEN count(*) < \(count) THEN \(sphereRadius)
                                  ELSE least(max(sphere) * \(Self.boundFactor) + 1, \(sphereRadius)) END AS reach FROM nearest)
            SELECT \(PostGISRows.selectColumns) FROM flyers
            WHERE ((search_boxes IS NULL AND ST_DWithin(geog, \(point), (SELECT reach FROM bound), false))\(areas))
              AND \(filter.conditions)
            """
        let candidates = try await store.flyers(filter.query(sql))
        return candidates.compactMap { flyer in
            // The words PostgreSQL matched are checked as the cache checks them (`TextQuery.matches`).
            guard query.text?.matches(flyer) ?? true else { return nil }
            return NearbyMatch(flyer, from: query.center, within: radius, after: query.after)
        }
    }

    /// ` OR …`: areas whose boxes meet the latitude/longitude box of `radius` around the centre.
    private static func areas(_ radius: Double, _ query: NearbyQuery, _ filter: inout Filter) -> String {
        areas(in: Geodesic.wgs84.boundingBox(center: query.center, radius: radius), &filter)
    }

    /// ` OR …`: areas whose boxes meet `box`.
    static func areas(in box: BoundingBox, _ filter: inout Filter) -> String {
        box.longitudeRanges.map { range in
            " OR search_boxes && ST_MakeEnvelope(\(filter.bind(range.lowerBound)), \(filter.bind(box.minLatitude)), "
                + "\(filter.bind(range.upperBound)), \(filter.bind(box.maxLatitude)), 4326)"
        }.joined()
    }

    private static func page(_ matches: [NearbyMatch], _ query: NearbyQuery) -> NearbyMatches {
        let sorted = matches.sorted { $0.position.precedes($1.distance, $1.flyer.id) }
        let limit = max(1, query.limit)
        return NearbyMatches(matches: Array(sorted.prefix(limit)), hasMore: sorted.count > limit)
    }

    package func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?, text: TextQuery?
    ) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        var filter = Filter(category, at: instant, includeInactive: includeInactive, text: text)
        var conditions = filter.conditions
        if let after { conditions += " AND (title, id) > (\(filter.bind(after.title)), \(filter.bind(after.id)))" }
        let limit = max(1, limit)
        let flyers = try await store.flyers(
            filter.query(
                "SELECT \(PostGISRows.selectColumns) FROM flyers WHERE \(conditions) ORDER BY title, id LIMIT \(limit + 1)"
            ))
        return (Array(flyers.prefix(limit)), flyers.count > limit)
    }

    package func list(limit: Int, after: String?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        let limit = max(1, limit)
        let flyers = try await store.flyers(
            "SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers WHERE id > \(after ?? "") ORDER BY id LIMIT \(limit + 1)"
        )
        return (Array(flyers.prefix(limit)), flyers.count > limit)
    }

    package func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await store.flyer(id: id)
    }

    /// The category and validity conditions, with their bound values (`$1`, `$2`, …).
    struct Filter {
        var bindings = PostgresBindings()
        var conditions = "TRUE"

        init(_ category: String?, at instant: Date, includeInactive: Bool, text: TextQuery?) {
            if let category { conditions += " AND category_key = \(bind(category.lowercased()))" }
            if let text { conditions += " AND \(PostGISSchema.wordsExpression) @@ \(bind(text.tsquery))::tsquery" }
            if !includeInactive {
                let time = bind(instant.timeIntervalSince1970)
                conditions +=
                    " AND (valid_from IS NULL OR valid_from <= \(time)) AND (valid_until IS NULL OR valid_until >= \(time))"
            }
        }

        /// The placeholder of `value`, bound.
        mutating func bind(_ value: some PostgresNonThrowingEncodable & Sendable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }

        /// The placeholder of the geography point at `coordinate`.
        mutating func bind(_ coordinate: Coordinate) -> String {
            "ST_SetSRID(ST_MakePoint(\(bind(coordinate.longitude)), \(bind(coordinate.latitude))), 4326)::geography"
        }

        func query(_ sql: String) -> PostgresQuery {
            PostgresQuery(unsafeSQL: sql, binds: bindings)
        }
    }
}
