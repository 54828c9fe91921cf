import Foundation
import MeridianCore

/// One edge of a polygon ring: the geodesic from `start` to `end`, with what the
/// distance and containment tests need precomputed.
struct GeodesicEdge: Sendable {
    let start: Coordinate
    let end: Coordinate
    /// Geodesic length, metres.
    let length: Double
    /// Azimuth at `start`, degrees.
    let azimuth: Double
    /// Latitude range of the whole edge, including a geodesic's bulge towards the pole.
    let minLatitude: Double
    let maxLatitude: Double
    /// The edge's midpoint: every point of the edge lies within `length / 2` of it.
    let midpoint: EarthPoint

    /// Mean Earth radius, used only to shape the iteration steps (the fixed point is exact).
    private static let meanRadius = 6_371_008.8

    init(from start: Coordinate, to end: Coordinate) {
        let geodesic = Geodesic.wgs84
        let inverse = geodesic.inverse(from: start, to: end)
        self.start = start
        self.end = end
        length = inverse.distance
        azimuth = inverse.initialBearing
        var minLatitude = min(start.latitude, end.latitude)
        var maxLatitude = max(start.latitude, end.latitude)
        // Clairaut: cos(reduced latitude) * sin(azimuth) is constant along a geodesic; its
        // extreme latitude lies inside the edge when the northward heading changes sign.
        let northward1 = cos(inverse.initialBearing * .pi / 180)
        let northward2 = cos(inverse.finalBearing * .pi / 180)
        if (northward1 > 0 && northward2 < 0) || (northward1 < 0 && northward2 > 0) {
            let oneMinusF = 1 - geodesic.flattening
            let reducedStart = atan(oneMinusF * tan(start.latitude * .pi / 180))
            let vertexReduced = acos(min(1, cos(reducedStart) * abs(sin(inverse.initialBearing * .pi / 180))))
            let vertexLatitude = atan(tan(vertexReduced) / oneMinusF) * 180 / .pi
            if northward1 > 0 {
                maxLatitude = max(maxLatitude, vertexLatitude)
            } else {
                minLatitude = min(minLatitude, -vertexLatitude)
            }
        }
        self.minLatitude = max(-90, minLatitude - 1e-9)
        self.maxLatitude = min(90, maxLatitude + 1e-9)
        let middle = (try? geodesic.direct(from: start, bearing: azimuth, distance: length / 2).destination) ?? start
        midpoint = EarthPoint(middle)
    }

    /// The point of the edge `distance` metres from `start`, and the edge's azimuth there.
    func position(at distance: Double) -> Geodesic.Direct? {
        try? Geodesic.wgs84.direct(from: start, bearing: azimuth, distance: distance)
    }

    /// The nearest point of the edge to `point` and its geodesic distance.
    ///
    /// Starts from the planar foot of the perpendicular and iterates on the geodesic
    /// condition for a minimum (the geodesic to `point` leaves the edge at a right angle),
    /// then compares with both ends. The fixed point is exact; iteration stops below 0.1 µm.
    func nearest(to point: Coordinate) -> (distance: Double, point: Coordinate) {
        let geodesic = Geodesic.wgs84
        var best = (distance: geodesic.distance(point, start), point: start)
        let toEnd = geodesic.distance(point, end)
        if toEnd < best.distance { best = (toEnd, end) }
        guard length > 0 else { return best }

        let plane = LocalPlane(origin: point, geodesic: geodesic)
        let a = plane.project(start), b = plane.project(end)
        let abx = b.x - a.x, aby = b.y - a.y
        let squared = abx * abx + aby * aby
        var along = squared > 0 ? min(1, max(0, -(a.x * abx + a.y * aby) / squared)) * length : 0
        var candidate: (distance: Double, point: Coordinate)?
        for _ in 0..<40 {
            guard let here = position(at: along) else { break }
            let towards = geodesic.inverse(from: here.destination, to: point)
            candidate = (towards.distance, here.destination)
            guard towards.distance > 0 else { break }
            let angle = (towards.initialBearing - here.finalBearing) * .pi / 180
            let sigma = towards.distance / Self.meanRadius
            let step = Self.meanRadius * atan2(sin(sigma) * cos(angle), cos(sigma))
            let next = min(length, max(0, along + step))
            if abs(next - along) < 1e-7 { break }
            along = next
        }
        if let candidate, candidate.distance < best.distance { best = candidate }
        return best
    }

    /// A lower bound of the distance from `point` (as `EarthPoint`) to any point of the edge.
    func lowerBound(from point: EarthPoint) -> Double {
        point.chord(to: midpoint) - length / 2
    }

    /// True when the edge crosses the meridian of `point` north of it
    /// (half-open at the ends, so a ring crossing through a vertex counts once).
    func crossesMeridianNorth(of point: Coordinate) -> Bool {
        let startOffset = wrappedLongitudeDifference(start.longitude - point.longitude)
        let endOffset = startOffset + wrappedLongitudeDifference(end.longitude - start.longitude)
        let straddles = (startOffset <= 0 && endOffset > 0) || (endOffset <= 0 && startOffset > 0)
        guard straddles else { return false }
        if point.latitude < minLatitude { return true }
        if point.latitude > maxLatitude { return false }
        guard let crossing = crossing(ofMeridian: point.longitude) else { return false }
        return crossing.latitude > point.latitude
    }

    /// Where the edge meets the meridian of `longitude`, which it must straddle (bisection to 1 µm along the
    /// edge; longitude is monotone along a geodesic, by Clairaut's relation); nil when PROJ fails.
    func crossing(ofMeridian longitude: Double) -> Coordinate? {
        let startSide = wrappedLongitudeDifference(start.longitude - longitude) <= 0
        var low = 0.0, high = length
        var crossing = start
        for _ in 0..<64 {
            let middle = (low + high) / 2
            guard let here = position(at: middle)?.destination else { return nil }
            crossing = here
            if (wrappedLongitudeDifference(here.longitude - longitude) <= 0) == startSide {
                low = middle
            } else {
                high = middle
            }
            if high - low < 1e-6 { break }
        }
        return crossing
    }
}
