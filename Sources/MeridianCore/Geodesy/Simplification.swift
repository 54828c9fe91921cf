import Foundation

extension Geodesic {
    /// Douglas–Peucker simplification: keeps the first and last point and every
    /// point needed so that no dropped point lies farther than `tolerance` metres
    /// from the simplified line. Returns the indices of the kept points, ascending.
    ///
    /// Offsets are measured in a local tangent plane scaled by the ellipsoid's
    /// radii of curvature at each segment's mid-latitude, which is exact to well
    /// under a millimetre per metre at track scales.
    public func simplifiedIndices(of points: [Coordinate], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        let tolerance = tolerance.isFinite ? max(0, tolerance) : 0
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var farthestOffset = -1.0
            for index in (first + 1)..<last {
                let offset = offsetFromSegment(points[index], points[first], points[last])
                if offset > farthestOffset {
                    farthestOffset = offset
                    farthest = index
                }
            }
            if farthestOffset > tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// The simplified polyline itself (see `simplifiedIndices(of:tolerance:)`).
    public func simplified(_ points: [Coordinate], tolerance: Double) -> [Coordinate] {
        simplifiedIndices(of: points, tolerance: tolerance).map { points[$0] }
    }

    /// Distance in metres from `point` to the segment `start`–`end` in a local plane.
    func offsetFromSegment(_ point: Coordinate, _ start: Coordinate, _ end: Coordinate) -> Double {
        let plane = LocalPlane(origin: start, geodesic: self)
        let p = plane.project(point)
        let e = plane.project(end)
        let lengthSquared = e.x * e.x + e.y * e.y
        guard lengthSquared > 0 else { return (p.x * p.x + p.y * p.y).squareRoot() }
        let t = min(1, max(0, (p.x * e.x + p.y * e.y) / lengthSquared))
        let dx = p.x - t * e.x
        let dy = p.y - t * e.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// An east/north plane (metres) tangent to the ellipsoid at `origin`.
public struct LocalPlane: Sendable {
    public let origin: Coordinate
    /// Metres per radian of latitude (meridional radius of curvature).
    let meridionalRadius: Double
    /// Metres per radian of longitude (parallel radius).
    let parallelRadius: Double

    public init(origin: Coordinate, geodesic: Geodesic = .wgs84) {
        self.origin = origin
        let e2 = geodesic.flattening * (2 - geodesic.flattening)
        let sinLatitude = sin(origin.latitude * .pi / 180)
        let w = (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        meridionalRadius = geodesic.equatorialRadius * (1 - e2) / (w * w * w)
        parallelRadius = geodesic.equatorialRadius / w * cos(origin.latitude * .pi / 180)
    }

    /// East (`x`) and north (`y`) offsets in metres from the origin.
    public func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        var deltaLongitude = coordinate.longitude - origin.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 }
        if deltaLongitude < -180 { deltaLongitude += 360 }
        return (deltaLongitude * .pi / 180 * parallelRadius,
                (coordinate.latitude - origin.latitude) * .pi / 180 * meridionalRadius)
    }
}
