import MeridianCore

/// A sparse latitude/longitude grid of slot numbers: points live in one cell, small
/// areas in every cell their boxes touch, large areas in a list checked on every query.
struct CellGrid: Sendable {
    /// Cell edge in degrees.
    let cellSize: Double
    private let rows: Int
    private let columns: Int
    private var cells: [Int: [Int32]] = [:]
    private var large: [Int32: [LatLonBox]] = [:]
    /// Areas touching more cells than this go to the large list.
    private static let maximumCellsPerArea = 256

    init(cellSize: Double) {
        self.cellSize = cellSize
        rows = Int((180 / cellSize).rounded(.up))
        columns = Int((360 / cellSize).rounded(.up))
    }

    private func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down)))) }
    private func column(_ longitude: Double) -> Int { min(columns - 1, max(0, Int(((longitude + 180) / cellSize).rounded(.down)))) }

    private func cellCount(_ boxes: [LatLonBox]) -> Int {
        boxes.reduce(0) { total, box in
            total + (row(box.maxLatitude) - row(box.minLatitude) + 1) * (column(box.maxLongitude) - column(box.minLongitude) + 1)
        }
    }

    private func forEachCell(of boxes: [LatLonBox], _ body: (Int) -> Void) {
        for box in boxes {
            for r in row(box.minLatitude)...row(box.maxLatitude) {
                for c in column(box.minLongitude)...column(box.maxLongitude) { body(r * columns + c) }
            }
        }
    }

    mutating func insert(point: Coordinate, slot: Int32) {
        cells[row(point.latitude) * columns + column(point.longitude), default: []].append(slot)
    }

    mutating func remove(point: Coordinate, slot: Int32) {
        let key = row(point.latitude) * columns + column(point.longitude)
        remove(slot, fromCell: key)
    }

    mutating func insert(area boxes: [LatLonBox], slot: Int32) {
        if cellCount(boxes) > Self.maximumCellsPerArea {
            large[slot] = boxes
        } else {
            forEachCell(of: boxes) { cells[$0, default: []].append(slot) }
        }
    }

    mutating func remove(area boxes: [LatLonBox], slot: Int32) {
        if large.removeValue(forKey: slot) != nil { return }
        forEachCell(of: boxes) { remove(slot, fromCell: $0) }
    }

    private mutating func remove(_ slot: Int32, fromCell key: Int) {
        guard var members = cells[key], let index = members.firstIndex(of: slot) else { return }
        members.swapAt(index, members.count - 1)
        members.removeLast()
        cells[key] = members.isEmpty ? nil : members
    }

    /// Calls `body` with every slot whose cell or box may meet `box` (areas may come more than once).
    func forEachCandidate(in box: BoundingBox, _ body: (Int32) -> Void) {
        let firstRow = row(box.minLatitude), lastRow = row(box.maxLatitude)
        let spans = box.longitudeRanges.map { (column($0.lowerBound), column($0.upperBound)) }
        let wanted = (lastRow - firstRow + 1) * spans.reduce(0) { $0 + $1.1 - $1.0 + 1 }
        if wanted > cells.count {
            for (key, members) in cells {
                let r = key / columns, c = key % columns
                guard r >= firstRow, r <= lastRow, spans.contains(where: { c >= $0.0 && c <= $0.1 }) else { continue }
                for slot in members { body(slot) }
            }
        } else {
            for r in firstRow...lastRow {
                for (west, east) in spans {
                    for c in west...east {
                        guard let members = cells[r * columns + c] else { continue }
                        for slot in members { body(slot) }
                    }
                }
            }
        }
        for (slot, boxes) in large where boxes.contains(where: { Self.meets($0, box) }) { body(slot) }
    }

    private static func meets(_ area: LatLonBox, _ box: BoundingBox) -> Bool {
        guard area.maxLatitude >= box.minLatitude, area.minLatitude <= box.maxLatitude else { return false }
        return box.longitudeRanges.contains { area.maxLongitude >= $0.lowerBound && area.minLongitude <= $0.upperBound }
    }
}
