import MeridianCore

/// How often each pixel of a map was run: the routes projected to a local plane around their middle (one scale for
/// both axes), each drawn into a grid with a brush two pixels wide, and every pixel counting the runs that crossed
/// it (a run that passes a street twice counts once there).
package struct HeatRaster: Sendable {
    /// Grid size, pixels.
    package let width: Int
    package let height: Int
    /// Runs crossing each pixel, row by row from the top left.
    package let counts: [UInt32]
    /// The highest count.
    package let maxCount: UInt32
    /// Runs drawn (those with at least one piece of path).
    package let runCount: Int
    /// Ground metres per pixel (0 without a route).
    package let metresPerPixel: Double
    private let plane: LocalPlane?
    private let originX: Double, originY: Double

    /// Free pixels kept around the routes.
    static let margin = 12.0

    /// Draws `runs` (each a list of pieces of path, drawn without joining them) into a grid `width` pixels wide; the
    /// height follows the routes' shape, between a quarter of the width and the width.
    package init(runs: [[[Coordinate]]], width: Int) {
        self.width = width
        let all = runs.lazy.flatMap { $0 }.flatMap { $0 }
        guard let first = all.first else {
            height = width / 2
            counts = Array(repeating: 0, count: width * height)
            maxCount = 0
            runCount = 0
            metresPerPixel = 0
            plane = nil
            originX = 0
            originY = 0
            return
        }
        // The drawing plane sits at the middle of the routes' latitudes and (unwrapped) longitudes.
        var south = first.latitude, north = first.latitude, west = 0.0, east = 0.0
        for coordinate in all {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            let longitude = Geodesic.normalizedLongitude(coordinate.longitude - first.longitude)
            west = min(west, longitude)
            east = max(east, longitude)
        }
        let middle =
            (try? Coordinate(
                latitude: (south + north) / 2,
                longitude: Geodesic.normalizedLongitude(first.longitude + (west + east) / 2))) ?? first
        let plane = LocalPlane(origin: middle)
        self.plane = plane
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for coordinate in all {
            let point = plane.project(coordinate)
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        let spanX = max(maxX - minX, 50), spanY = max(maxY - minY, 50)
        let inner = Double(width) - 2 * Self.margin
        let height = Int(min(max(inner * spanY / spanX, Double(width) / 4 - 2 * Self.margin), inner) + 2 * Self.margin)
        self.height = height
        let scale = min(inner / spanX, (Double(height) - 2 * Self.margin) / spanY)
        metresPerPixel = 1 / scale
        originX = Double(width) / 2 - (minX + maxX) / 2 * scale
        originY = Double(height) / 2 + (minY + maxY) / 2 * scale
        let (originX, originY) = (self.originX, self.originY)
        var counts = [UInt32](repeating: 0, count: width * height)
        var lastRun = [Int32](repeating: -1, count: width * height)
        var drawn = 0
        for (index, pieces) in runs.enumerated() {
            let run = Int32(index)
            var any = false
            for piece in pieces where !piece.isEmpty {
                any = true
                var previous: (x: Double, y: Double)?
                for coordinate in piece {
                    let projected = plane.project(coordinate)
                    let point = (x: originX + projected.x * scale, y: originY - projected.y * scale)
                    Self.line(
                        from: previous ?? point, to: point, width: width, height: height, run: run, counts: &counts,
                        lastRun: &lastRun)
                    previous = point
                }
            }
            if any { drawn += 1 }
        }
        self.counts = counts
        maxCount = counts.max() ?? 0
        runCount = drawn
    }

    /// The pixel holding `coordinate` (column, row), `nil` outside the grid.
    package func pixel(of coordinate: Coordinate) -> (x: Int, y: Int)? {
        guard let plane else { return nil }
        let projected = plane.project(coordinate)
        let x = Int((originX + projected.x / metresPerPixel).rounded(.down))
        let y = Int((originY - projected.y / metresPerPixel).rounded(.down))
        return (0..<width).contains(x) && (0..<height).contains(y) ? (x, y) : nil
    }

    /// Runs that crossed pixel (`x`, `y`).
    package func count(x: Int, y: Int) -> UInt32 { counts[y * width + x] }

    /// Steps along the line half a pixel at a time and marks a two-by-two brush at each step, once per run.
    private static func line(
        from a: (x: Double, y: Double), to b: (x: Double, y: Double), width: Int, height: Int, run: Int32,
        counts: inout [UInt32], lastRun: inout [Int32]
    ) {
        let steps = max(1, Int((max(abs(b.x - a.x), abs(b.y - a.y)) * 2).rounded(.up)))
        let dx = (b.x - a.x) / Double(steps), dy = (b.y - a.y) / Double(steps)
        for step in 0...steps {
            let x = Int((a.x + dx * Double(step) - 0.5).rounded(.down)),
                y = Int((a.y + dy * Double(step) - 0.5).rounded(.down))
            for py in y...(y + 1) where py >= 0 && py < height {
                for px in x...(x + 1) where px >= 0 && px < width {
                    let index = py * width + px
                    if lastRun[index] != run {
                        lastRun[index] = run
                        counts[index] += 1
                    }
                }
            }
        }
    }
}
