import Foundation
import MeridianCore

/// A point inside an area, to show it or head for it when no origin is known: the centroid of its largest
/// polygon when that lies inside, else the polygon's pole of inaccessibility (the inside point farthest from
/// every edge, searched for as Mapbox's polylabel does). Both are worked out in a gnomonic projection centred
/// on the polygon, where geodesics are nearly straight, and accepted only when the area's exact test agrees.
enum SurfacePoint {
    /// The point for `polygons` (each an outer ring, then its holes), largest polygon first; nil when no
    /// candidate passes `contains` (the area's exact containment test).
    static func of(_ polygons: [[[Coordinate]]], contains: (Coordinate) -> Bool) -> Coordinate? {
        let planes = polygons.compactMap(PlanePolygon.init).sorted { $0.area > $1.area }
        for plane in planes {
            for candidate in [plane.centroid, plane.poleOfInaccessibility()] {
                if let point = candidate.flatMap(plane.coordinate), contains(point) { return point }
            }
        }
        return nil
    }
}

/// A polygon in the gnomonic projection (on the unit sphere) about the mean direction of its outer ring.
private struct PlanePolygon {
    typealias Point = SIMD2<Double>
    let center: SIMD3<Double>
    let east: SIMD3<Double>
    let north: SIMD3<Double>
    /// The outer ring first, then the holes.
    let rings: [[Point]]
    /// The outer ring's area less the holes'.
    let area: Double

    /// Nil when the polygon has no direction or reaches more than about 84° from its centre (a gnomonic
    /// projection holds less than a hemisphere).
    init?(_ coordinateRings: [[Coordinate]]) {
        guard let outer = coordinateRings.first, outer.count >= 4 else { return nil }
        let sum = outer.dropLast().reduce(SIMD3<Double>()) { $0 + Self.unit($1) }
        let length = (sum * sum).sum().squareRoot()
        guard length > 1e-9 else { return nil }
        center = sum / length
        let helper: SIMD3<Double> = abs(center.z) < 0.9 ? [0, 0, 1] : [1, 0, 0]
        let across = Self.cross(helper, center)
        east = across / (across * across).sum().squareRoot()
        north = Self.cross(center, east)
        var rings: [[Point]] = []
        for ring in coordinateRings {
            var points: [Point] = []
            for vertex in ring {
                let direction = Self.unit(vertex)
                let along = (direction * center).sum()
                guard along > 0.1 else { return nil }
                points.append(Point((direction * east).sum() / along, (direction * north).sum() / along))
            }
            rings.append(points)
        }
        self.rings = rings
        area = rings.enumerated().reduce(0) { total, ring in
            total + (ring.offset == 0 ? 1 : -1) * abs(Self.signedArea(ring.element))
        }
    }

    /// The area-weighted centroid (holes subtracted); nil for a polygon without area.
    var centroid: Point? {
        var weighted = Point(), total = 0.0
        for (index, ring) in rings.enumerated() {
            let signed = Self.signedArea(ring)
            guard signed != 0 else { continue }
            var sum = Point()
            for (a, b) in zip(ring, ring.dropFirst()) { sum += (a + b) * (a.x * b.y - b.x * a.y) }
            let weight = (index == 0 ? 1 : -1) * abs(signed)
            weighted += sum / (6 * signed) * weight
            total += weight
        }
        return total > 0 ? weighted / total : nil
    }

    /// The inside point farthest from every edge, to within a thousandth of the polygon's size.
    func poleOfInaccessibility() -> Point? {
        guard let outer = rings.first, let first = outer.first else { return nil }
        let low = outer.reduce(first) { pointwiseMin($0, $1) }, high = outer.reduce(first) { pointwiseMax($0, $1) }
        let size = high - low
        guard size.max() > 0 else { return nil }
        let precision = size.max() / 1000
        // Square cells covering the box, at most 64 along its longer side.
        let cellSize = max(size.min(), size.max() / 64)
        var cells: [(center: Point, half: Double, distance: Double)] = []
        var heap = MinHeap()
        func push(_ center: Point, _ half: Double) {
            let distance = signedDistance(center)
            cells.append((center, half, distance))
            // Largest possible distance inside the cell first.
            heap.push(.init(key: -(distance + half * 2.squareRoot()), reference: Int32(cells.count - 1), part: 0))
        }
        var y = low.y
        while y < high.y {
            var x = low.x
            while x < high.x {
                push(Point(x + cellSize / 2, y + cellSize / 2), cellSize / 2)
                x += cellSize
            }
            y += cellSize
        }
        var best: (center: Point, distance: Double)? = centroid.map { ($0, signedDistance($0)) }
        while let entry = heap.popMin(), cells.count < 100_000 {
            let cell = cells[Int(entry.reference)]
            if cell.distance > (best?.distance ?? -.infinity) { best = (cell.center, cell.distance) }
            guard -entry.key - (best?.distance ?? 0) > precision else { continue }
            let half = cell.half / 2
            for offset in [Point(-half, -half), Point(half, -half), Point(-half, half), Point(half, half)] {
                push(cell.center + offset, half)
            }
        }
        guard let best, best.distance > 0 else { return nil }
        return best.center
    }

    /// The distance from `point` to the nearest edge, positive inside (even-odd over every ring).
    private func signedDistance(_ point: Point) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) {
                if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                    inside.toggle()
                }
                nearest = min(nearest, Self.squaredDistance(point, a, b))
            }
        }
        return (inside ? 1 : -1) * nearest.squareRoot()
    }

    /// The coordinate a projected point stands for.
    func coordinate(_ point: Point) -> Coordinate? {
        let direction = center + point.x * east + point.y * north
        let horizontal = (direction.x * direction.x + direction.y * direction.y).squareRoot()
        return Coordinate.clamped(
            latitude: atan2(direction.z, horizontal) * 180 / .pi,
            longitude: atan2(direction.y, direction.x) * 180 / .pi)
    }

    private static func unit(_ coordinate: Coordinate) -> SIMD3<Double> {
        let latitude = coordinate.latitude * .pi / 180, longitude = coordinate.longitude * .pi / 180
        return [cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude)]
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
    }

    private static func signedArea(_ ring: [Point]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
    }

    private static func squaredDistance(_ point: Point, _ a: Point, _ b: Point) -> Double {
        let edge = b - a, offset = point - a
        let lengthSquared = (edge * edge).sum()
        let t = lengthSquared > 0 ? min(1, max(0, (offset * edge).sum() / lengthSquared)) : 0
        let gap = offset - t * edge
        return (gap * gap).sum()
    }
}
