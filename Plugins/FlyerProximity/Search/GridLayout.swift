import MeridianCore

/// The latitude/longitude grid shared by the mutable and the packed index: cells of `cellSize`
/// degrees numbered row by row from the south-west, each divisible into `partsPerSide`² parts.
struct GridLayout: Sendable {
    /// Cell edge in degrees.
    let cellSize: Double
    let rows: Int
    let columns: Int
    /// A cell with more points than this is split into parts.
    static let maximumPointsPerCell = 128
    static let partsPerSide = 16
    /// Areas touching more cells than this are checked on every query instead.
    static let maximumCellsPerArea = 256
    /// Added to an area's reach in boxes, against rounding.
    static let roundingSlack = 0.01

    init(cellSize: Double) {
        self.cellSize = cellSize
        rows = Int((180 / cellSize).rounded(.up))
        columns = Int((360 / cellSize).rounded(.up))
    }

    func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down)))) }
    func column(_ longitude: Double) -> Int {
        min(columns - 1, max(0, Int(((longitude + 180) / cellSize).rounded(.down))))
    }

    /// The number of the cell holding `point`.
    func key(of point: Coordinate) -> Int { row(point.latitude) * columns + column(point.longitude) }

    /// The part of its cell that `point` falls in.
    func part(of point: Coordinate) -> Int32 {
        let side = Self.partsPerSide
        let rowInCell = ((point.latitude + 90) / cellSize - Double(row(point.latitude))) * Double(side)
        let columnInCell = ((point.longitude + 180) / cellSize - Double(column(point.longitude))) * Double(side)
        let r = min(side - 1, max(0, Int(rowInCell.rounded(.down))))
        let c = min(side - 1, max(0, Int(columnInCell.rounded(.down))))
        return Int32(r * side + c)
    }

    /// How many cells `boxes` touch.
    func cellCount(_ boxes: [LatLonBox]) -> Int {
        boxes.reduce(0) { total, box in
            total + (row(box.maxLatitude) - row(box.minLatitude) + 1)
                * (column(box.maxLongitude) - column(box.minLongitude) + 1)
        }
    }

    /// Calls `body` with the number of every cell `boxes` touch.
    func forEachCell(of boxes: [LatLonBox], _ body: (Int) -> Void) {
        for box in boxes {
            for r in row(box.minLatitude)...row(box.maxLatitude) {
                for c in column(box.minLongitude)...column(box.maxLongitude) { body(r * columns + c) }
            }
        }
    }

    /// The rows of `box` and, per row, its column spans.
    func spans(of box: BoundingBox) -> (rows: ClosedRange<Int>, columns: [(Int, Int)]) {
        (
            row(box.minLatitude)...row(box.maxLatitude),
            box.longitudeRanges.map { (column($0.lowerBound), column($0.upperBound)) }
        )
    }

    static func meets(_ area: LatLonBox, _ box: BoundingBox) -> Bool {
        guard area.maxLatitude >= box.minLatitude, area.minLatitude <= box.maxLatitude else { return false }
        return box.longitudeRanges.contains { area.maxLongitude >= $0.lowerBound && area.minLongitude <= $0.upperBound }
    }
}
