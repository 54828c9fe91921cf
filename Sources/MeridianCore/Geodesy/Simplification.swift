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
            let (farthest, farthestOffset) = farthestPoint(of: points, between: first, and: last)
            if farthestOffset > tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// Douglas–Peucker for a budget: the indices kept in each of `segments` (one list per segment, first and last
    /// point always) at the smallest tolerance that keeps at most `maxPoints` points over all segments, and that
    /// tolerance. Exactly what `simplifiedIndices(of:tolerance:)` keeps at that tolerance, found with one pass:
    /// the recursion run to the end gives every point the tolerance up to which it is kept (its offset when it is
    /// chosen, or its parent's if smaller), and the budget picks the threshold.
    public func simplifiedIndices(ofSegments segments: [[Coordinate]], maxPoints: Int) -> (
        tolerance: Double, kept: [[Int]]
    ) {
        let significance = segments.map { significances(of: $0) }
        let inner = significance.flatMap { $0.filter(\.isFinite) }.sorted(by: >)
        let budget = maxPoints - significance.reduce(0) { $0 + $1.count { !$0.isFinite } }
        let keepAll = budget >= inner.count
        let tolerance = keepAll ? 0 : inner[max(0, budget)]
        return (tolerance, significance.map { values in values.indices.filter { keepAll || values[$0] > tolerance } })
    }

    /// For every point, the largest tolerance at which Douglas–Peucker still keeps it (infinite for the ends).
    private func significances(of points: [Coordinate]) -> [Double] {
        var values = [Double](repeating: 0, count: points.count)
        guard let last = points.indices.last else { return values }
        values[0] = .infinity
        values[last] = .infinity
        var stack = [(0, last, Double.infinity)]
        while let (first, last, limit) = stack.popLast() {
            guard last > first + 1 else { continue }
            let (farthest, farthestOffset) = farthestPoint(of: points, between: first, and: last)
            let significance = min(farthestOffset, limit)
            values[farthest] = significance
            stack.append((first, farthest, significance))
            stack.append((farthest, last, significance))
        }
        return values
    }

    /// The point strictly between `first` and `last` farthest from the line joining them, and its offset in metres.
    private func farthestPoint(of points: [Coordinate], between first: Int, and last: Int) -> (
        index: Int, offset: Double
    ) {
        var farthest = first
        var farthestOffset = -1.0
        // One plane per segment: the same for every point measured against it.
        let segment = SegmentFrame(start: points[first], end: points[last], geodesic: self)
        for index in (first + 1)..<last {
            let offset = segment.offset(of: points[index])
            if offset > farthestOffset {
                farthestOffset = offset
                farthest = index
            }
        }
        return (farthest, farthestOffset)
    }

    /// The simplified polyline itself (see `simplifiedIndices(of:tolerance:)`).
    public func simplified(_ points: [Coordinate], tolerance: Double) -> [Coordinate] {
        simplifiedIndices(of: points, tolerance: tolerance).map { points[$0] }
    }

    /// Distance in metres from `point` to the segment `start`–`end` in a local plane.
    func offsetFromSegment(_ point: Coordinate, _ start: Coordinate, _ end: Coordinate) -> Double {
        SegmentFrame(start: start, end: end, geodesic: self).offset(of: point)
    }
}

/// A segment in the plane tangent at its start, for measuring many points against it.
struct SegmentFrame {
    let plane: LocalPlane
    let end: (x: Double, y: Double)
    let lengthSquared: Double

    init(start: Coordinate, end: Coordinate, geodesic: Geodesic) {
        plane = LocalPlane(origin: start, geodesic: geodesic)
        self.end = plane.project(end)
        lengthSquared = self.end.x * self.end.x + self.end.y * self.end.y
    }

    /// Distance in metres from `point` to the segment.
    func offset(of point: Coordinate) -> Double {
        let p = plane.project(point)
        guard lengthSquared > 0 else { return (p.x * p.x + p.y * p.y).squareRoot() }
        let t = min(1, max(0, (p.x * end.x + p.y * end.y) / lengthSquared))
        let dx = p.x - t * end.x
        let dy = p.y - t * end.y
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
        return (
            deltaLongitude * .pi / 180 * parallelRadius,
            (coordinate.latitude - origin.latitude) * .pi / 180 * meridionalRadius
        )
    }
}
