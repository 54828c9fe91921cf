import Foundation
import GRDB
import MeridianCore

/// The routes a heatmap draws: the stored track of every saved run the filter selects (`run_tracks.path`, the path
/// simplified to 5 m that route matching keeps), so a map of a thousand one-hour runs reads a few hundred thousand
/// points instead of millions; cut by the privacy zones, so nothing inside one is drawn.
package enum HeatmapSource {
    /// The longest step, metres, between the points a path is checked against the privacy zones at: the simplified
    /// path's points can be hundreds of metres apart on a straight street, and a line between two of them must not
    /// cross a zone. The cut circles reach past the zones by their secret jitter, far more than this.
    static let zoneCheckStep = 10.0

    /// Each selected run's path, as the pieces outside the privacy zones `zones` (default: the stored ones).
    package static func runs(filter: RunFilter, zones: PrivacyZones? = nil, in db: Database) throws -> [[[Coordinate]]]
    {
        let zones = try zones ?? PrivacyZones.load(db)
        let conditions = ["r.deleted_at IS NULL", "r.state = 'stopped'"] + filter.conditions.map { "r.\($0.sql)" }
        let cursor = try Data.fetchCursor(
            db,
            sql: """
                SELECT t.path FROM run_tracks t JOIN runs r ON r.id = t.run_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY r.started_at, r.id
                """,
            arguments: StatementArguments(filter.conditions.map(\.argument)))
        var runs: [[[Coordinate]]] = []
        while let packed = try cursor.next() {
            // A path that does not unpack is left out: the run still counts everywhere else.
            guard let path = RunTrack.unpack(packed), path.count >= 2 else { continue }
            runs.append(zones.isEmpty ? [path] : zones.visiblePieces(densified(path)))
        }
        return runs
    }

    /// `path` with points added along each step longer than `zoneCheckStep` (straight in latitude and longitude,
    /// exact enough over a few hundred metres).
    static func densified(_ path: [Coordinate]) -> [Coordinate] {
        guard let first = path.first else { return [] }
        var dense = [first]
        dense.reserveCapacity(path.count * 4)
        for (a, b) in zip(path, path.dropFirst()) {
            let plane = LocalPlane(origin: a)
            let step = plane.project(b)
            let length = (step.x * step.x + step.y * step.y).squareRoot()
            let parts = Int((length / zoneCheckStep).rounded(.up))
            if parts > 1 {
                let deltaLongitude = Geodesic.normalizedLongitude(b.longitude - a.longitude)
                for part in 1..<parts {
                    let t = Double(part) / Double(parts)
                    if let point = try? Coordinate(
                        latitude: a.latitude + (b.latitude - a.latitude) * t,
                        longitude: Geodesic.normalizedLongitude(a.longitude + deltaLongitude * t))
                    {
                        dense.append(point)
                    }
                }
            }
            dense.append(b)
        }
        return dense
    }
}
