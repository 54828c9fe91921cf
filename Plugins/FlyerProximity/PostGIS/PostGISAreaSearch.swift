import Foundation
import MeridianCore
import PostgresNIO

extension PostGISSearch {
    /// The area query's page from PostGIS itself: points within the query's reach of its anchor on the sphere
    /// (`ST_DWithin`, widened as `nearby` widens it) and areas whose `search_boxes` meet the reach's box, each
    /// tested exactly as the cache tests it (`AreaQuery.match`).
    package func area(_ query: AreaQuery) async throws(FlyerStoreError) -> NearbyMatches {
        var filter = Filter(query.category, at: query.at, includeInactive: query.includeInactive, text: query.text)
        let points: String
        if query.reach * Self.sphereFactor + 1 < Self.worldRadius {
            let anchor = filter.bind(query.anchor)
            points =
                "(search_boxes IS NULL AND ST_DWithin(geog, \(anchor), \(filter.bind(query.reach * Self.sphereFactor + 1)), false))"
        } else {
            points = "search_boxes IS NULL"
        }
        let spatial = points + Self.areas(in: query.searchBox, &filter)
        let candidates = try await store.flyers(
            filter.query("SELECT \(PostGISRows.selectColumns) FROM flyers WHERE (\(spatial)) AND \(filter.conditions)"))
        return query.page(candidates.compactMap(query.match))
    }
}
