import Foundation
import MeridianCore

/// Where a heatmap looks when the runs lie far apart (a holiday run on another continent would shrink home to a
/// dot): at the runs that start within `radius` of the busiest place, the cell of about 50 km holding the most starts
/// (of two as busy, the one with the later run: where the runner lives now).
enum HeatmapFocus {
    /// How far from the busiest place a run may start and still be drawn, metres.
    static let radius = 50_000.0

    /// The runs starting near the busiest place, in their order, and how many start elsewhere.
    static func busiest(_ runs: [[[Coordinate]]]) -> (shown: [[[Coordinate]]], elsewhere: Int) {
        let starts = runs.map { $0.first?.first }
        let metresPerDegree = 111_195.0
        let cellDegrees = radius / metresPerDegree
        func cell(_ coordinate: Coordinate) -> [Int] {
            let latitude = Int((coordinate.latitude / cellDegrees).rounded(.down))
            let shrink = max(cos(Double(latitude) * cellDegrees * .pi / 180), 0.05)
            return [latitude, Int((coordinate.longitude * shrink / cellDegrees).rounded(.down))]
        }
        // Each cell's starts and the index of its latest run (runs come oldest first).
        var cells: [[Int]: (starts: [Coordinate], latest: Int)] = [:]
        for (index, start) in starts.enumerated() {
            guard let start else { continue }
            cells[cell(start), default: ([], index)].starts.append(start)
            cells[cell(start)]?.latest = index
        }
        guard cells.count > 1,
            let busiest = cells.values.max(by: { ($0.starts.count, $0.latest) < ($1.starts.count, $1.latest) })?
                .starts
        else { return (runs, 0) }
        let centre = (
            latitude: busiest.map(\.latitude).reduce(0, +) / Double(busiest.count),
            longitude: busiest.map(\.longitude).reduce(0, +) / Double(busiest.count)
        )
        let shrink = cos(centre.latitude * .pi / 180)
        var shown: [[[Coordinate]]] = []
        for (run, start) in zip(runs, starts) {
            guard let start else { continue }
            let north = (start.latitude - centre.latitude) * metresPerDegree
            let east = Geodesic.normalizedLongitude(start.longitude - centre.longitude) * shrink * metresPerDegree
            if north * north + east * east <= radius * radius { shown.append(run) }
        }
        return (shown, starts.compactMap { $0 }.count - shown.count)
    }
}
