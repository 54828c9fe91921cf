import Foundation
import MeridianCore

/// A route (a LineString of geodesic edges) and how far from it flyers are wanted.
struct QueryLine: Sendable {
    let edges: [GeodesicEdge]
    /// Metres.
    let buffer: Double
    /// Every point within `buffer` of the line is within `reach` metres of `anchor`.
    let anchor: Coordinate
    let reach: Double

    /// A line through `positions` (at least two).
    init(_ positions: [Coordinate], buffer: Double) {
        edges = zip(positions, positions.dropFirst()).map { GeodesicEdge(from: $0, to: $1) }
        self.buffer = buffer
        var sum = EarthPoint(x: 0, y: 0, z: 0)
        for position in positions {
            let point = EarthPoint(position)
            sum = EarthPoint(x: sum.x + point.x, y: sum.y + point.y, z: sum.z + point.z)
        }
        let anchor = sum.surfaceCoordinate ?? positions.first ?? .zero
        self.anchor = anchor
        let farthest = positions.reduce(0) { max($0, Geodesic.wgs84.distance(anchor, $1)) }
        reach = farthest + (edges.map(\.length).max() ?? 0) / 2 + buffer
    }

    /// The geodesic distance from `point` to the nearest point of the line.
    func distance(to point: Coordinate) -> Double {
        let earth = EarthPoint(point)
        var best = Double.infinity
        for edge in edges.sorted(by: { $0.lowerBound(from: earth) < $1.lowerBound(from: earth) }) {
            if edge.lowerBound(from: earth) > best { break }
            best = min(best, edge.nearest(to: point).distance)
        }
        return best
    }

    /// The geodesic distance from `area` to the line: 0 when the line enters it, else the least distance
    /// between a vertex of one and the other.
    func distance(to area: AreaShape) -> Double {
        guard let first = edges.first else { return .infinity }
        if area.contains(first.start) || EdgeSweep.firstMeeting(edges, area.edges) != nil { return 0 }
        let vertices = edges.map(\.start) + [edges.last?.end ?? first.start]
        let fromLine = vertices.reduce(Double.infinity) { min($0, area.nearestBoundary(to: $1).distance) }
        return area.edges.reduce(fromLine) { min($0, distance(to: $1.start)) }
    }
}
