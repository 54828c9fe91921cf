import Foundation
import MeridianCore

extension NearbySearch {
    /// Answers an area query from the catalogue's cache, or its database when the cache is cold (`stale` when a
    /// warm cache answers while the database is unreachable).
    package func respond(_ query: AreaQuery, catalog: FlyerCatalog) async throws(FlyerStoreError) -> FlyerList {
        let (searcher, stale) = try catalog.reader()
        var list = try await respond(query, searcher: searcher)
        if stale { list.stale = true }
        return list
    }

    /// Answers an area query from `searcher`: flyers as nearby lists them, with `distance_m` (from the route)
    /// for a route query only.
    package func respond(_ query: AreaQuery, searcher: any FlyerSearching) async throws(FlyerStoreError) -> FlyerList {
        let page = try await searcher.area(query)
        let items = page.matches.map { match in
            var result = presenter.result(match.flyer, target: match.nearest)
            if query.measuresDistance {
                result.distanceM = match.distance
                result.distanceText = DistanceFormat.string(metres: match.distance, units: presenter.units)
            }
            return result
        }
        let next = page.hasMore ? page.matches.last.map { SearchCursor.distance($0.position).token } : nil
        return FlyerList(items: items, nextCursor: next)
    }
}
