import Foundation
import MeridianCore

/// A flyer with what search needs precomputed: its shape, an anchor and reach for
/// lower bounds.
struct PreparedFlyer: Sendable {
    enum Shape: Sendable {
        case point(Coordinate)
        case area(AreaShape)
    }

    let flyer: Flyer
    let shape: Shape
    /// The point itself, or the area's anchor.
    let anchor: EarthPoint
    /// 0 for points; for areas every point is within this many metres of the anchor.
    let reach: Double

    /// Nil only for an area without any vertex (validation rejects those earlier).
    init?(_ flyer: Flyer) {
        self.flyer = flyer
        switch flyer.geometry {
        case .point(let point):
            shape = .point(point)
            anchor = EarthPoint(point)
            reach = 0
        case .polygon, .multiPolygon:
            guard let area = AreaShape(flyer.geometry.polygons) else { return nil }
            shape = .area(area)
            anchor = area.anchor
            reach = area.reach
        }
    }

    var isArea: Bool {
        if case .area = shape { return true }
        return false
    }

    /// A distance no larger than the true one (the chord, less the area's reach).
    func lowerBound(from center: EarthPoint) -> Double {
        max(0, center.chord(to: anchor) - reach)
    }

    /// Exact ellipsoidal distance from `center` (0 inside an area) and the flyer's nearest point.
    func distance(from center: Coordinate) -> (distance: Double, point: Coordinate) {
        switch shape {
        case .point(let point): return (Geodesic.wgs84.distance(center, point), point)
        case .area(let area): return area.distance(to: center)
        }
    }

    /// The place to head for from `origin`: the point, or the nearest boundary point of an area
    /// (its representative point without an origin).
    func target(from origin: Coordinate?) -> Coordinate {
        switch shape {
        case .point(let point): return point
        case .area(let area): return origin.map { area.nearestBoundary(to: $0).point } ?? area.representative
        }
    }
}
