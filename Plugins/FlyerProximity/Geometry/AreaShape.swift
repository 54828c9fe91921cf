import Foundation
import MeridianCore

/// A latitude/longitude box with `minLongitude <= maxLongitude` (areas crossing ±180° use two).
struct LatLonBox: Sendable, Equatable {
    var minLatitude: Double
    var maxLatitude: Double
    var minLongitude: Double
    var maxLongitude: Double

    static let world = LatLonBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)
}

/// An area flyer prepared for search: geodesic edges, containment, distance and bounds.
struct AreaShape: Sendable {
    struct Ring: Sendable {
        let edges: [GeodesicEdge]
        /// The ring winds around the north pole (flips the parity of meridian crossings).
        let enclosesNorthPole: Bool
        let enclosesPole: Bool
    }

    /// Polygons, each an outer ring followed by its holes.
    let polygons: [[Ring]]
    /// Every edge of every ring (each ring's vertices are its edges' starts).
    let edges: [GeodesicEdge]
    /// Boxes containing the whole area.
    let boxes: [LatLonBox]
    /// Every point of the area is within `reach` metres (geodesic) of `anchor`.
    let anchor: EarthPoint
    let reach: Double
    /// A point to show or head for when no origin is known: the mean of the outer vertices when it lies inside
    /// the area, else a point inside found by `SurfacePoint` (the mean only if none can be found).
    private(set) var representative: Coordinate

    /// Prepares validated polygons; nil when there is no vertex at all.
    init?(_ polygonRings: [[[Coordinate]]]) {
        let geodesic = Geodesic.wgs84
        var polygons: [[Ring]] = []
        var allEdges: [GeodesicEdge] = []
        var boxes: [LatLonBox] = []
        var sum = EarthPoint(x: 0, y: 0, z: 0)
        var outerVertices: [Coordinate] = []
        var anyPole = false
        for rings in polygonRings {
            var prepared: [Ring] = []
            for (ringIndex, ring) in rings.enumerated() {
                var edges: [GeodesicEdge] = []
                var winding = 0.0
                for index in 0..<max(0, ring.count - 1) {
                    edges.append(GeodesicEdge(from: ring[index], to: ring[index + 1]))
                    winding += wrappedLongitudeDifference(ring[index + 1].longitude - ring[index].longitude)
                }
                let enclosesPole = abs(winding) > 180
                let meanLatitude = ring.reduce(0) { $0 + $1.latitude } / Double(max(1, ring.count))
                prepared.append(
                    Ring(edges: edges, enclosesNorthPole: enclosesPole && meanLatitude > 0, enclosesPole: enclosesPole))
                allEdges += edges
                if ringIndex == 0 {
                    anyPole = anyPole || enclosesPole
                    boxes += Self.boxes(ring: ring, edges: edges, enclosesPole: enclosesPole, north: meanLatitude > 0)
                    for vertex in ring.dropLast() {
                        let point = EarthPoint(vertex)
                        sum = EarthPoint(x: sum.x + point.x, y: sum.y + point.y, z: sum.z + point.z)
                        outerVertices.append(vertex)
                    }
                }
            }
            polygons.append(prepared)
        }
        guard let anchorCoordinate = sum.surfaceCoordinate ?? outerVertices.first else { return nil }
        self.polygons = polygons
        self.edges = allEdges
        self.boxes = boxes
        representative = anchorCoordinate
        anchor = EarthPoint(anchorCoordinate)
        if anyPole {
            reach = .infinity
        } else {
            reach = allEdges.reduce(0) { result, edge in
                max(
                    result,
                    max(
                        geodesic.distance(anchorCoordinate, edge.start),
                        geodesic.distance(anchorCoordinate, edge.end)) + edge.length / 2)
            }
        }
        if !contains(anchorCoordinate), let inside = SurfacePoint.of(polygonRings, contains: { self.contains($0) }) {
            representative = inside
        }
    }

    /// True when `point` is inside the area (on an outer ring and outside every hole of one polygon).
    func contains(_ point: Coordinate) -> Bool {
        polygons.contains { rings in
            guard let outer = rings.first, Self.inside(outer, point) else { return false }
            return !rings.dropFirst().contains { Self.inside($0, point) }
        }
    }

    private static func inside(_ ring: Ring, _ point: Coordinate) -> Bool {
        var inside = ring.enclosesNorthPole
        for edge in ring.edges where edge.crossesMeridianNorth(of: point) { inside.toggle() }
        return inside
    }

    /// The nearest point on any ring and its distance (also for points inside).
    func nearestBoundary(to point: Coordinate) -> (distance: Double, point: Coordinate) {
        let earth = EarthPoint(point)
        let ordered = edges.map { ($0.lowerBound(from: earth), $0) }.sorted { $0.0 < $1.0 }
        var best = (distance: Double.infinity, point: representative)
        for (bound, edge) in ordered {
            if bound > best.distance { break }
            let candidate = edge.nearest(to: point)
            if candidate.distance < best.distance { best = candidate }
        }
        return best
    }

    /// The distance from `point` to the area: 0 inside, else to the nearest boundary point.
    func distance(to point: Coordinate) -> (distance: Double, point: Coordinate) {
        contains(point) ? (0, point) : nearestBoundary(to: point)
    }

    /// The boxes of one outer ring: exact latitude limits of the geodesic edges, longitudes
    /// swept along the ring (split at ±180°), everything around a pole when the ring encloses one.
    private static func boxes(ring: [Coordinate], edges: [GeodesicEdge], enclosesPole: Bool, north: Bool) -> [LatLonBox]
    {
        guard let first = ring.first else { return [] }
        var minLatitude = edges.map(\.minLatitude).min() ?? first.latitude
        var maxLatitude = edges.map(\.maxLatitude).max() ?? first.latitude
        if enclosesPole {
            if north { maxLatitude = 90 } else { minLatitude = -90 }
            return [
                LatLonBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)
            ]
        }
        var longitude = first.longitude
        var west = longitude, east = longitude
        for index in 1..<max(1, ring.count) {
            longitude += wrappedLongitudeDifference(ring[index].longitude - ring[index - 1].longitude)
            west = min(west, longitude)
            east = max(east, longitude)
        }
        if east - west >= 360 {
            return [
                LatLonBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)
            ]
        }
        let box = { (low: Double, high: Double) in
            LatLonBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: low, maxLongitude: high)
        }
        if west < -180 { return [box(west + 360, 180), box(-180, east)] }
        if east > 180 { return [box(west, 180), box(-180, east - 360)] }
        return [box(west, east)]
    }
}
