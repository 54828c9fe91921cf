import Foundation
import MeridianCore

/// Containment in one area for many points (a query polygon's candidates), exactly as `AreaShape.contains`
/// decides it, but faster:
/// - **slabs**: the longitudes are cut at every vertex; a point strictly inside a slab can only have the edges
///   spanning that slab cross its meridian, so only those are tested (the same half-open parity test);
/// - **a raster** of cells over the area's box (when it is one box): a cell that no edge's box touches (with a
///   cell to spare) is wholly inside or outside, found once for each run of such cells along a row, so a point
///   there needs no edge at all.
struct ContainmentIndex: Sendable {
    private let shape: AreaShape
    private let edges: [GeodesicEdge]
    /// Per edge, the number of its ring (all rings of all polygons, in order).
    private let edgeRing: [UInt8]
    /// Slab `k` lies between `boundaries[k]` and `boundaries[k + 1]`; its edges are
    /// `slabEdges[slabStart[k]..<slabStart[k + 1]]`.
    private let boundaries: [Double]
    private let slabStart: [Int32]
    private let slabEdges: [Int32]
    /// The rings that enclose the north pole (inside before any crossing), and per polygon its outer ring and holes.
    private let initialMask: UInt64
    private let polygonMasks: [(outer: UInt64, holes: UInt64)]
    private var raster: Raster?

    private struct Raster: Sendable {
        static let side = 128
        let box: LatLonBox
        let cellHeight: Double
        let cellWidth: Double
        /// Per cell: 0 outside, 1 inside, 2 touched by an edge's box.
        var cells: [UInt8]

        func cell(_ point: Coordinate) -> Int {
            let row = min(Self.side - 1, max(0, Int((point.latitude - box.minLatitude) / cellHeight)))
            let column = min(Self.side - 1, max(0, Int((point.longitude - box.minLongitude) / cellWidth)))
            return row * Self.side + column
        }
    }

    /// Nil when the area has more than 64 rings or its slabs would list more than a million edges.
    init?(_ shape: AreaShape) {
        let rings = shape.polygons.flatMap { $0 }
        guard rings.count <= 64 else { return nil }
        var edges: [GeodesicEdge] = [], edgeRing: [UInt8] = []
        var initialMask: UInt64 = 0, polygonMasks: [(UInt64, UInt64)] = []
        var ringNumber = 0
        for polygon in shape.polygons {
            var outer: UInt64 = 0, holes: UInt64 = 0
            for (index, ring) in polygon.enumerated() {
                let bit = UInt64(1) << UInt64(ringNumber)
                if index == 0 { outer = bit } else { holes |= bit }
                if ring.enclosesNorthPole { initialMask |= bit }
                edges += ring.edges
                edgeRing += Array(repeating: UInt8(ringNumber), count: ring.edges.count)
                ringNumber += 1
            }
            polygonMasks.append((outer, holes))
        }
        let spans = edges.map(Self.spans)
        let boundaries = Array(Set(spans.flatMap { $0.flatMap { [$0.lowerBound, $0.upperBound] } } + [-180, 180]))
            .sorted()
        var lists = Array(repeating: [Int32](), count: boundaries.count - 1)
        var total = 0
        for (edge, ranges) in spans.enumerated() {
            for range in ranges where range.upperBound > range.lowerBound {
                var slab = boundaries.partitioningIndex { $0 >= range.lowerBound }
                while slab < lists.count && boundaries[slab + 1] <= range.upperBound {
                    lists[slab].append(Int32(edge))
                    slab += 1
                    total += 1
                }
                if total > 1_000_000 { return nil }
            }
        }
        self.shape = shape
        self.edges = edges
        self.edgeRing = edgeRing
        self.boundaries = boundaries
        var start: [Int32] = [0]
        for list in lists { start.append(start[start.count - 1] + Int32(list.count)) }
        slabStart = start
        slabEdges = lists.flatMap { $0 }
        self.initialMask = initialMask
        self.polygonMasks = polygonMasks
        if shape.boxes.count == 1, let box = shape.boxes.first, box.maxLongitude - box.minLongitude < 180 {
            raster = makeRaster(box)
        }
    }

    /// True when `point` is inside the area (the same answer as `AreaShape.contains`).
    func contains(_ point: Coordinate) -> Bool {
        guard let raster else { return slabContains(point) }
        let box = raster.box
        guard point.latitude >= box.minLatitude, point.latitude <= box.maxLatitude,
            point.longitude >= box.minLongitude, point.longitude <= box.maxLongitude
        else { return false }
        switch raster.cells[raster.cell(point)] {
        case 0: return false
        case 1: return true
        default: return slabContains(point)
        }
    }

    private func slabContains(_ point: Coordinate) -> Bool {
        let longitude = point.longitude
        let next = boundaries.partitioningIndex { $0 > longitude }
        guard next > 0, next < boundaries.count, boundaries[next - 1] != longitude else {
            return shape.contains(point)
        }
        var mask = initialMask
        for index in slabEdges[Int(slabStart[next - 1])..<Int(slabStart[next])]
        where edges[Int(index)].crossesMeridianNorth(of: point) {
            mask ^= UInt64(1) << UInt64(edgeRing[Int(index)])
        }
        return polygonMasks.contains { mask & $0.outer != 0 && mask & $0.holes == 0 }
    }

    /// The raster over `box`: cells touched by an edge's box (and their neighbours) marked, the others found
    /// inside or outside by one test per run along a row.
    private func makeRaster(_ box: LatLonBox) -> Raster {
        let side = Raster.side
        var raster = Raster(
            box: box, cellHeight: max(1e-12, (box.maxLatitude - box.minLatitude) / Double(side)),
            cellWidth: max(1e-12, (box.maxLongitude - box.minLongitude) / Double(side)),
            cells: Array(repeating: 0, count: side * side))
        for edge in edges {
            let low =
                Coordinate.clamped(
                    latitude: edge.minLatitude, longitude: min(edge.start.longitude, edge.end.longitude)) ?? .zero
            let high =
                Coordinate.clamped(
                    latitude: edge.maxLatitude, longitude: max(edge.start.longitude, edge.end.longitude)) ?? .zero
            let first = raster.cell(low), last = raster.cell(high)
            for row in max(0, first / side - 1)...min(side - 1, last / side + 1) {
                for column in max(0, first % side - 1)...min(side - 1, last % side + 1) {
                    raster.cells[row * side + column] = 2
                }
            }
        }
        for row in 0..<side {
            var column = 0
            while column < side {
                guard raster.cells[row * side + column] != 2 else {
                    column += 1
                    continue
                }
                let center =
                    Coordinate.clamped(
                        latitude: box.minLatitude + (Double(row) + 0.5) * raster.cellHeight,
                        longitude: box.minLongitude + (Double(column) + 0.5) * raster.cellWidth) ?? .zero
                let inside: UInt8 = slabContains(center) ? 1 : 0
                while column < side && raster.cells[row * side + column] != 2 {
                    raster.cells[row * side + column] = inside
                    column += 1
                }
            }
        }
        return raster
    }

    /// The longitudes an edge spans, split at ±180°.
    private static func spans(_ edge: GeodesicEdge) -> [ClosedRange<Double>] {
        let start = edge.start.longitude, end = start + edge.longitudeExtent
        let low = min(start, end), high = max(start, end)
        if high > 180 { return [low...180, -180...(high - 360)] }
        if low < -180 { return [(low + 360)...180, -180...high] }
        return [low...high]
    }
}
