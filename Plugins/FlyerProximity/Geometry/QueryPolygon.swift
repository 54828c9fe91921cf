import Foundation
import MeridianCore

/// A Polygon or MultiPolygon that a query matches flyers against, prepared as flyer areas are (`AreaShape`:
/// geodesic edges, holes, across ±180° and around the poles) and checked not to cross itself.
struct QueryPolygon: Sendable {
    let shape: AreaShape
    /// For testing many points; nil for shapes it does not take (then `shape` tests them).
    private let index: ContainmentIndex?

    /// Prepares validated polygons (each an outer ring, then its holes); throws naming the first two edges of one
    /// polygon that cross or touch (rings may not meet, and a ring may not meet itself but at adjacent edges).
    init(_ polygons: [[[Coordinate]]], field: String) throws(AreaQueryError) {
        for (polygonIndex, rings) in polygons.enumerated() {
            var edges: [GeodesicEdge] = []
            var labels: [(ring: Int, edge: Int, count: Int)] = []
            for (ringIndex, ring) in rings.enumerated() {
                let count = ring.count - 1
                for index in 0..<max(0, count) {
                    edges.append(GeodesicEdge(from: ring[index], to: ring[index + 1]))
                    labels.append((ringIndex, index, count))
                }
            }
            let adjacent = { (i: Int, j: Int) -> Bool in
                let a = labels[i], b = labels[j]
                guard a.ring == b.ring else { return false }
                let gap = abs(a.edge - b.edge)
                return gap <= 1 || gap == a.count - 1
            }
            if let (i, j) = EdgeSweep.firstMeeting(edges, edges, skip: { $1 <= $0 || adjacent($0, $1) }) {
                let prefix = polygons.count > 1 ? "[\(polygonIndex)]" : ""
                let a = labels[i], b = labels[j]
                let near = edges[j].start
                throw AreaQueryError(
                    field: field,
                    message:
                        "the polygon crosses itself: the edge from coordinates\(prefix)[\(a.ring)][\(a.edge)] meets the edge from coordinates\(prefix)[\(b.ring)][\(b.edge)] near [\(near.longitude), \(near.latitude)]; rings must not cross or touch themselves or each other (use a MultiPolygon for separate parts)"
                )
            }
        }
        guard let shape = AreaShape(polygons) else {
            throw AreaQueryError(field: field, message: "the polygon has no positions")
        }
        self.shape = shape
        index = ContainmentIndex(shape)
    }

    func contains(_ point: Coordinate) -> Bool { index?.contains(point) ?? shape.contains(point) }

    /// True when every point of `area` lies inside: its vertices are inside, no edges meet, and no vertex of
    /// the polygon (an outer ring or a hole) lies inside the area.
    func covers(_ area: AreaShape) -> Bool {
        guard let first = area.edges.first, contains(first.start) else { return false }
        if EdgeSweep.firstMeeting(area.edges, shape.edges) != nil { return false }
        guard area.edges.allSatisfy({ contains($0.start) }) else { return false }
        return !shape.edges.contains { area.contains($0.start) }
    }

    /// True when `area` and the polygon share a point: a vertex of one lies in the other, or edges meet.
    func meets(_ area: AreaShape) -> Bool {
        if area.edges.contains(where: { contains($0.start) }) { return true }
        if EdgeSweep.firstMeeting(area.edges, shape.edges) != nil { return true }
        return shape.edges.contains { area.contains($0.start) }
    }
}
