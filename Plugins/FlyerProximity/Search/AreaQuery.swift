import Foundation
import MeridianCore

/// An area query: the flyers wholly inside a polygon, touching it, in a map viewport, or along a route,
/// exactly on the ellipsoid. Answers are ordered by `distance` (0 but for `nearLine`: the distance from the
/// route), then id, and paged with the same cursor as nearby.
package struct AreaQuery: Sendable {
    enum Kind: Sendable {
        /// Flyers wholly inside (a point inside; every point of an area inside, its boundary not touching).
        case within(QueryPolygon)
        /// Flyers whose point or area shares a point with the polygon.
        case intersects(QueryPolygon)
        /// Flyers whose point or area shares a point with the viewport.
        case box(QueryBox)
        /// Flyers within `buffer` metres of the route.
        case nearLine(QueryLine)
    }

    let kind: Kind
    package var limit: Int
    /// Only flyers of this category (compared without regard to case).
    package var category: String?
    /// The instant at which validity is judged.
    package var at: Date
    package var includeInactive: Bool
    /// Continue after this (distance, id) position, from the previous page's cursor.
    package var after: DistancePosition?
    /// Only flyers whose text has every word of this (`q`).
    package var text: TextQuery?
    /// Every match lies within `reach` metres (geodesic) of `anchor`.
    let anchor: Coordinate
    let reach: Double

    init(
        _ kind: Kind, limit: Int, category: String? = nil, at: Date = Date(), includeInactive: Bool = false,
        after: DistancePosition? = nil, text: TextQuery? = nil
    ) {
        self.kind = kind
        self.limit = limit
        self.category = category
        self.at = at
        self.includeInactive = includeInactive
        self.after = after
        self.text = text
        switch kind {
        case .within(let polygon), .intersects(let polygon):
            anchor = polygon.shape.anchor.surfaceCoordinate ?? polygon.shape.representative
            reach = polygon.shape.reach
        case .box(let box):
            anchor = box.center
            reach = box.reach
        case .nearLine(let line):
            anchor = line.anchor
            reach = line.reach
        }
    }

    /// The flyers wholly inside `polygons` (each an outer ring, then its holes), or with `intersects` those that
    /// touch them; throws when the polygons cross themselves.
    package static func polygon(
        _ polygons: [[[Coordinate]]], intersects: Bool, limit: Int, category: String? = nil, at: Date = Date(),
        includeInactive: Bool = false, after: DistancePosition? = nil, text: TextQuery? = nil
    ) throws(AreaQueryError) -> AreaQuery {
        let polygon = try QueryPolygon(polygons, field: intersects ? "intersects" : "within")
        return AreaQuery(
            intersects ? .intersects(polygon) : .within(polygon), limit: limit, category: category, at: at,
            includeInactive: includeInactive, after: after, text: text)
    }

    /// `anchor` in Earth-centred coordinates.
    var anchorPoint: EarthPoint {
        switch kind {
        case .within(let polygon), .intersects(let polygon): return polygon.shape.anchor
        case .box, .nearLine: return EarthPoint(anchor)
        }
    }

    /// A latitude/longitude box holding every match.
    var searchBox: BoundingBox { Geodesic.wgs84.boundingBox(center: anchor, radius: reach) }

    /// True for a route query, whose distances are from the route (the others' are all 0).
    var measuresDistance: Bool {
        if case .nearLine = kind { return true }
        return false
    }

    /// The flyer's distance in the query's order when it matches, else nil.
    func match(_ shape: PreparedFlyer.Shape) -> Double? {
        switch (kind, shape) {
        case (.within(let polygon), .point(let point)), (.intersects(let polygon), .point(let point)):
            return polygon.contains(point) ? 0 : nil
        case (.within(let polygon), .area(let area)):
            return polygon.covers(area) ? 0 : nil
        case (.intersects(let polygon), .area(let area)):
            return polygon.meets(area) ? 0 : nil
        case (.box(let box), .point(let point)):
            return box.contains(point) ? 0 : nil
        case (.box(let box), .area(let area)):
            return box.meets(area) ? 0 : nil
        case (.nearLine(let line), .point(let point)):
            let distance = line.distance(to: point)
            return distance <= line.buffer ? distance : nil
        case (.nearLine(let line), .area(let area)):
            let distance = line.distance(to: area)
            return distance <= line.buffer ? distance : nil
        }
    }

    /// `flyer` as a match when it passes the filters, the cursor and the query.
    func match(_ flyer: Flyer) -> NearbyMatch? {
        guard FlyerFilter(category: category, at: at, includeInactive: includeInactive, text: text).admits(flyer),
            let prepared = PreparedFlyer(flyer), let distance = match(prepared.shape)
        else { return nil }
        if let after, !after.precedes(distance, flyer.id) { return nil }
        return NearbyMatch(flyer: flyer, distance: distance, nearest: prepared.target(from: nil))
    }

    /// The page of `matches` (in any order; all after the cursor): sorted by distance then id, `limit` of them.
    func page(_ matches: [NearbyMatch]) -> NearbyMatches {
        let limit = max(1, limit)
        let sorted = matches.sorted { $0.position.precedes($1.distance, $1.flyer.id) }
        return NearbyMatches(matches: Array(sorted.prefix(limit)), hasMore: sorted.count > limit)
    }
}

/// An area query that cannot be answered, naming the field or parameter.
package struct AreaQueryError: Error, Equatable, CustomStringConvertible {
    package var field: String
    package var message: String
    package var description: String { "\(field): \(message)" }
}
