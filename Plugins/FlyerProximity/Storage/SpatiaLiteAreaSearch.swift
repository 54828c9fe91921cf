import Foundation
import GRDB
import MeridianCore

extension SpatiaLiteSearch {
    /// The area query's page from SpatiaLite itself: the R*Tree entries meeting the latitude/longitude box of the
    /// query's reach (widened by `margin`) and every wide area (as `nearby` reads them), each tested exactly.
    func area(_ query: AreaQuery) async throws(FlyerStoreError) -> NearbyMatches {
        let (sql, arguments) = Self.candidates(in: query.searchBox, wide: try wideAreaRowids())
        var found: [NearbyMatch] = []
        try repository.scan(sql, arguments) { flyer in
            if let match = query.match(flyer) { found.append(match) }
            return true
        }
        return query.page(found)
    }

    /// The condition on `flyers` for the R*Tree entries meeting `box` (widened by `margin`) and the `wide` areas.
    static func candidates(in box: BoundingBox, wide: String?) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        for range in box.longitudeRanges {
            conditions.append("(xmax >= ? AND xmin <= ? AND ymax >= ? AND ymin <= ?)")
            arguments += [
                range.lowerBound - margin, range.upperBound + margin, box.minLatitude - margin, box.maxLatitude + margin
            ]
        }
        var sql = "rowid IN (SELECT pkid FROM idx_flyers_geom WHERE \(conditions.joined(separator: " OR ")))"
        if let wide {
            sql += " OR rowid IN (SELECT value FROM json_each(?))"
            arguments.append(wide)
        }
        return (sql, StatementArguments(arguments))
    }
}
