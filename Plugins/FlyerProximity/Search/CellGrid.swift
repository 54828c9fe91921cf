import MeridianCore

/// A sparse latitude/longitude grid for nearest-first search: points live in one cell, small
/// areas in every cell their boxes touch, large areas in a list checked on every query.
/// Every cell keeps an Earth-centred box around its contents; crowded cells split their
/// points into `partsPerSide`² parts with boxes of their own, so a query inside a dense
/// cluster measures only the parts near it.
struct CellGrid: Sendable {
    /// A point's slot with its Earth-centred position and its part of the cell.
    fileprivate struct PointEntry {
        var anchor: EarthPoint
        var slot: Int32
        var part: Int32
    }

    /// An area's slot with its anchor and reach (every point of it is that close to the anchor).
    fileprivate struct AreaEntry {
        var anchor: EarthPoint
        var reach: Double
        var slot: Int32
    }

    fileprivate struct Part {
        var points: [PointEntry] = []
        var box = SpaceBox()
    }

    fileprivate struct Cell {
        /// The points while the cell is not split.
        var points: [PointEntry] = []
        var areas: [AreaEntry] = []
        /// Holds every point and area of the cell.
        var box = SpaceBox()
        /// The points once the cell is split.
        var parts: [Part] = []
    }

    private struct LargeArea {
        var boxes: [LatLonBox]
        var entry: AreaEntry
    }

    let layout: GridLayout
    private var cells: [Int: Cell] = [:]
    private var large: [Int32: LargeArea] = [:]
    /// Heap entry kinds besides a part number.
    private static let flyerEntry: Int32 = -1
    private static let cellEntry: Int32 = -2

    init(cellSize: Double) {
        layout = GridLayout(cellSize: cellSize)
    }

    mutating func insert(point: Coordinate, anchor: EarthPoint, slot: Int32) {
        let entry = PointEntry(anchor: anchor, slot: slot, part: layout.part(of: point))
        let key = layout.key(of: point)
        cells[key, default: Cell()].insert(entry)
    }

    mutating func remove(point: Coordinate, slot: Int32) {
        let key = layout.key(of: point)
        let part = Int(layout.part(of: point))
        cells[key]?.remove(slot, part: part)
        if cells[key]?.isEmpty == true { cells[key] = nil }
    }

    mutating func insert(area boxes: [LatLonBox], anchor: EarthPoint, reach: Double, slot: Int32) {
        let entry = AreaEntry(anchor: anchor, reach: reach, slot: slot)
        if layout.cellCount(boxes) > GridLayout.maximumCellsPerArea {
            large[slot] = LargeArea(boxes: boxes, entry: entry)
        } else {
            layout.forEachCell(of: boxes) { key in
                cells[key, default: Cell()].areas.append(entry)
                cells[key]?.box.include(anchor, margin: reach + GridLayout.roundingSlack)
            }
        }
    }

    mutating func remove(area boxes: [LatLonBox], slot: Int32) {
        if large.removeValue(forKey: slot) != nil { return }
        layout.forEachCell(of: boxes) { key in
            cells[key]?.removeArea(slot)
            if cells[key]?.isEmpty == true { cells[key] = nil }
        }
    }

    /// Offers the slots that may meet `box` to `visit` in increasing order of a lower bound of
    /// their distance from `center` (areas may come more than once). `visit` returns the
    /// cutoff: slots whose bound is above it are not offered (it starts at `cutoff`).
    func nearestFirst(
        from center: EarthPoint, in box: BoundingBox, cutoff initialCutoff: Double,
        _ visit: (_ slot: Int32) -> Double
    ) {
        var cutoff = initialCutoff
        var heap = MinHeap()
        func pushEntry(_ key: Double, _ reference: Int32, _ part: Int32) {
            if key <= cutoff { heap.push(MinHeap.Entry(key: key, reference: reference, part: part)) }
        }
        func pushArea(_ area: AreaEntry) {
            pushEntry(max(0, center.chord(to: area.anchor) - area.reach), area.slot, Self.flyerEntry)
        }
        func pushPoints(_ points: [PointEntry]) {
            for point in points { pushEntry(center.chord(to: point.anchor), point.slot, Self.flyerEntry) }
        }
        forEachCell(in: box) { key, cell in pushEntry(cell.box.distance(from: center), Int32(key), Self.cellEntry) }
        for (_, area) in large where area.boxes.contains(where: { GridLayout.meets($0, box) }) { pushArea(area.entry) }
        while let entry = heap.popMin(), entry.key <= cutoff {
            switch entry.part {
            case Self.flyerEntry:
                cutoff = visit(entry.reference)
            case Self.cellEntry:
                guard let cell = cells[Int(entry.reference)] else { continue }
                for area in cell.areas { pushArea(area) }
                pushPoints(cell.points)
                for (index, part) in cell.parts.enumerated() where !part.points.isEmpty {
                    pushEntry(part.box.distance(from: center), entry.reference, Int32(index))
                }
            default:
                guard let cell = cells[Int(entry.reference)] else { continue }
                pushPoints(cell.parts[Int(entry.part)].points)
            }
        }
    }

    /// Calls `body` with every cell that may meet `box`.
    private func forEachCell(in box: BoundingBox, _ body: (Int, Cell) -> Void) {
        let (rowRange, spans) = layout.spans(of: box)
        let firstRow = rowRange.lowerBound, lastRow = rowRange.upperBound, columns = layout.columns
        let wanted = (lastRow - firstRow + 1) * spans.reduce(0) { $0 + $1.1 - $1.0 + 1 }
        if wanted > cells.count {
            for (key, cell) in cells {
                let r = key / columns, c = key % columns
                guard r >= firstRow, r <= lastRow, spans.contains(where: { c >= $0.0 && c <= $0.1 }) else { continue }
                body(key, cell)
            }
        } else {
            for r in firstRow...lastRow {
                for (west, east) in spans {
                    for c in west...east {
                        let key = r * columns + c
                        guard let cell = cells[key] else { continue }
                        body(key, cell)
                    }
                }
            }
        }
    }
}

extension CellGrid.Cell {
    fileprivate var isEmpty: Bool { areas.isEmpty && points.isEmpty && parts.allSatisfy { $0.points.isEmpty } }

    fileprivate mutating func insert(_ entry: CellGrid.PointEntry) {
        box.include(entry.anchor)
        if parts.isEmpty {
            points.append(entry)
            guard points.count > GridLayout.maximumPointsPerCell else { return }
            parts = Array(repeating: CellGrid.Part(), count: GridLayout.partsPerSide * GridLayout.partsPerSide)
            for point in points { parts[Int(point.part)].add(point) }
            points = []
        } else {
            parts[Int(entry.part)].add(entry)
        }
    }

    /// Removes area `slot`; the box keeps its size (still a bound).
    fileprivate mutating func removeArea(_ slot: Int32) {
        guard let index = areas.firstIndex(where: { $0.slot == slot }) else { return }
        areas.swapAt(index, areas.count - 1)
        areas.removeLast()
    }

    /// Removes point `slot`; the boxes keep their size (still bounds).
    fileprivate mutating func remove(_ slot: Int32, part: Int) {
        if parts.isEmpty {
            points.removeSlot(slot)
        } else {
            parts[part].points.removeSlot(slot)
        }
    }
}

extension CellGrid.Part {
    fileprivate mutating func add(_ entry: CellGrid.PointEntry) {
        points.append(entry)
        box.include(entry.anchor)
    }
}

extension Array where Element == CellGrid.PointEntry {
    fileprivate mutating func removeSlot(_ slot: Int32) {
        guard let index = firstIndex(where: { $0.slot == slot }) else { return }
        swapAt(index, count - 1)
        removeLast()
    }
}
