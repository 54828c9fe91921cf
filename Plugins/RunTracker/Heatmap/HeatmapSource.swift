import Foundation
import GRDB
import MeridianCore

/// The routes a heatmap draws: the stored track of every saved run the filter selects (`run_tracks.path`, the path
/// simplified to 5 m that route matching keeps), so a map of a thousand one-hour runs reads a few hundred thousand
/// points instead of millions; cut by the privacy zones, so nothing inside one is drawn.
package enum HeatmapSource {
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
            runs.append(zones.visibleLines(path))
        }
        return runs
    }
}
