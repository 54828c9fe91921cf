import Foundation
import MeridianCore

/// A path on the ground to measure positions along (a run's route, a segment): its vertices, the exact WGS84
/// distance from the first vertex to each, and each edge's tangent plane for projecting points onto it.
public struct ReferencePath: Sendable {
    /// The vertices, without repeated positions.
    package let vertices: [Coordinate]
    /// Geodesic distance from the first vertex to each vertex, metres.
    package let cumulative: [Double]
    /// Per edge: the initial azimuth and the edge's end in the plane tangent at its start.
    private let azimuths: [Double]
    private let planes: [LocalPlane]
    private let ends: [(x: Double, y: Double)]

    /// Builds the path through `coordinates` (repeated positions are dropped).
    package init(_ coordinates: [Coordinate]) {
        var vertices: [Coordinate] = []
        vertices.reserveCapacity(coordinates.count)
        for coordinate in coordinates where coordinate != vertices.last { vertices.append(coordinate) }
        var cumulative = [0.0]
        var azimuths: [Double] = []
        var planes: [LocalPlane] = []
        var ends: [(x: Double, y: Double)] = []
        for (from, to) in zip(vertices, vertices.dropFirst()) {
            let inverse = Geodesic.wgs84.inverse(from: from, to: to)
            cumulative.append(cumulative[cumulative.count - 1] + inverse.distance)
            azimuths.append(inverse.initialBearing)
            let plane = LocalPlane(origin: from)
            planes.append(plane)
            ends.append(plane.project(to))
        }
        self.vertices = vertices
        self.cumulative = vertices.isEmpty ? [] : cumulative
        self.azimuths = azimuths
        self.planes = planes
        self.ends = ends
    }

    /// Length in metres.
    package var length: Double { cumulative.last ?? 0 }
    /// Number of edges.
    var edgeCount: Int { azimuths.count }

    /// The point `distance` metres along the path (clamped to its ends), on the geodesic of its edge.
    package func coordinate(at distance: Double) -> Coordinate? {
        guard let first = vertices.first else { return nil }
        guard edgeCount > 0, distance > 0 else { return first }
        guard distance < length else { return vertices.last }
        let edge = self.edge(containing: distance)
        let offset = distance - cumulative[edge]
        return (try? Geodesic.wgs84.direct(from: vertices[edge], bearing: azimuths[edge], distance: offset))?
            .destination
    }

    /// The index of the edge whose span holds `distance` (the first or last edge beyond the ends).
    func edge(containing distance: Double) -> Int {
        var low = 0, high = edgeCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if cumulative[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    /// `point` projected onto edge `edge`: the distance along the path of its foot and its offset from the path,
    /// metres. The first edge extends backwards and the last forwards, so points before the start have a
    /// negative distance and points after the end one beyond the length.
    func project(_ point: Coordinate, onEdge edge: Int) -> PathPosition {
        let p = planes[edge].project(point)
        let e = ends[edge]
        let lengthSquared = e.x * e.x + e.y * e.y
        var fraction = lengthSquared > 0 ? (p.x * e.x + p.y * e.y) / lengthSquared : 0
        if edge > 0 { fraction = max(0, fraction) }
        if edge < edgeCount - 1 { fraction = min(1, fraction) }
        let dx = p.x - fraction * e.x, dy = p.y - fraction * e.y
        let edgeLength = cumulative[edge + 1] - cumulative[edge]
        return PathPosition(
            along: cumulative[edge] + fraction * edgeLength, offset: (dx * dx + dy * dy).squareRoot(), edge: edge)
    }

    /// The nearest projection of `point` on the edges that overlap `distances` (along the path, metres).
    func nearest(_ point: Coordinate, within distances: ClosedRange<Double>) -> PathPosition? {
        guard edgeCount > 0 else { return nil }
        var best: PathPosition?
        var edge = self.edge(containing: distances.lowerBound)
        while edge < edgeCount {
            let candidate = project(point, onEdge: edge)
            if candidate.offset < best?.offset ?? .infinity { best = candidate }
            if cumulative[edge + 1] >= distances.upperBound { break }
            edge += 1
        }
        return best
    }
}

/// Where a point lies relative to a `ReferencePath`.
struct PathPosition: Sendable, Equatable {
    /// Distance along the path of the point's foot, metres (negative before the start, beyond the length after the end).
    var along: Double
    /// Distance from the path, metres.
    var offset: Double
    /// The edge the foot is on.
    var edge: Int
}
