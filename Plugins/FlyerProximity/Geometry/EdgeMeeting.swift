import Foundation
import MeridianCore

/// Where geodesic edges meet each other and latitude/longitude boxes, exactly on the ellipsoid: longitude is
/// monotone along a geodesic (Clairaut), so two edges are compared as latitude over their common longitudes,
/// found by the same bisection the containment test uses (`GeodesicEdge.crossing(ofMeridian:)`).
extension GeodesicEdge {
    /// The edge's longitude change from start to end (0 for an edge along a meridian).
    var longitudeExtent: Double { wrappedLongitudeDifference(end.longitude - start.longitude) }

    /// True when the edge runs along a meridian (or is a single point).
    var isMeridional: Bool { abs(longitudeExtent) < 1e-12 }

    /// The edge's latitude where it meets the meridian of `longitude` (which must lie in its longitude span).
    func latitude(atLongitude longitude: Double) -> Double {
        if abs(wrappedLongitudeDifference(start.longitude - longitude)) < 1e-12 { return start.latitude }
        if abs(wrappedLongitudeDifference(end.longitude - longitude)) < 1e-12 { return end.latitude }
        return crossing(ofMeridian: longitude)?.latitude ?? start.latitude
    }

    /// True when this edge and `other` cross or touch (to the bisection's micrometre).
    func meets(_ other: GeodesicEdge) -> Bool {
        guard minLatitude <= other.maxLatitude, other.minLatitude <= maxLatitude else { return false }
        let origin = start.longitude
        let extent = longitudeExtent, otherExtent = other.longitudeExtent
        let otherStart = wrappedLongitudeDifference(other.start.longitude - origin)
        for shift in [0.0, -360, 360] {
            let a = otherStart + shift, b = a + otherExtent
            let low = max(min(0, extent), min(a, b)), high = min(max(0, extent), max(a, b))
            guard low <= high else { continue }
            if isMeridional || other.isMeridional {
                let longitude = origin + low
                if overlaps(latitudes(at: longitude), other.latitudes(at: longitude)) { return true }
                continue
            }
            let west = latitude(atLongitude: origin + low) - other.latitude(atLongitude: origin + low)
            let east = latitude(atLongitude: origin + high) - other.latitude(atLongitude: origin + high)
            if west * east <= 0 { return true }
        }
        return false
    }

    /// True when the edge meets the latitude/longitude box `box`.
    func meets(_ box: QueryBox) -> Bool {
        guard minLatitude <= box.north, maxLatitude >= box.south else { return false }
        let extent = longitudeExtent
        let first = box.offset(start.longitude)
        let vertexOffset = vertex.map { box.offset($0.longitude) }
        for shift in [0.0, -360, 360] {
            let a = first + shift, b = a + extent
            let low = max(0, min(a, b)), high = min(box.width, max(a, b))
            guard low <= high else { continue }
            var range: ClosedRange<Double>
            if isMeridional {
                range = latitudes(at: box.west + low)
            } else {
                let one = latitude(atLongitude: box.west + low), two = latitude(atLongitude: box.west + high)
                range = min(one, two)...max(one, two)
            }
            if let vertex, let offset = vertexOffset,
                [offset, offset - 360, offset + 360].contains(where: { $0 >= low && $0 <= high })
            {
                range = min(range.lowerBound, vertex.latitude)...max(range.upperBound, vertex.latitude)
            }
            if range.lowerBound <= box.north && range.upperBound >= box.south { return true }
        }
        return false
    }

    /// The point inside the edge where its latitude is extreme (where its heading turns from north to south or
    /// back), nil when the extremes are its ends.
    var vertex: Coordinate? {
        let northward = cos(azimuth * .pi / 180)
        guard let arrival = position(at: length), northward * cos(arrival.finalBearing * .pi / 180) < 0 else {
            return nil
        }
        var low = 0.0, high = length
        var point = start
        for _ in 0..<64 {
            let middle = (low + high) / 2
            guard let here = position(at: middle) else { return nil }
            point = here.destination
            if (cos(here.finalBearing * .pi / 180) > 0) == (northward > 0) { low = middle } else { high = middle }
            if high - low < 1e-6 { break }
        }
        return point
    }

    /// The edge's latitudes on the meridian of `longitude`: its span for an edge along a meridian, else one.
    private func latitudes(at longitude: Double) -> ClosedRange<Double> {
        if isMeridional { return min(start.latitude, end.latitude)...max(start.latitude, end.latitude) }
        let latitude = latitude(atLongitude: longitude)
        return latitude...latitude
    }

    private func overlaps(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>) -> Bool {
        a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound
    }
}

/// Pairs of edges whose latitude ranges overlap, by a sweep over latitude.
enum EdgeSweep {
    /// The first pair (index in `a`, index in `b`) that meets and that `skip` does not exclude.
    static func firstMeeting(
        _ a: [GeodesicEdge], _ b: [GeodesicEdge], skip: (Int, Int) -> Bool = { _, _ in false }
    ) -> (Int, Int)? {
        let order = b.indices.sorted { b[$0].minLatitude < b[$1].minLatitude }
        let tallest = b.reduce(0) { max($0, $1.maxLatitude - $1.minLatitude) }
        for (i, edge) in a.enumerated() {
            var index = order.partitioningIndex { b[$0].minLatitude >= edge.minLatitude - tallest }
            while index < order.count, b[order[index]].minLatitude <= edge.maxLatitude {
                let j = order[index]
                index += 1
                if b[j].maxLatitude < edge.minLatitude || skip(i, j) { continue }
                if edge.meets(b[j]) { return (i, j) }
            }
        }
        return nil
    }
}
