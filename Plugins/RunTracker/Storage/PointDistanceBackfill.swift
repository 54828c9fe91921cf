import GRDB
import MeridianCore

/// Fills `run_points.distance_m` for runs stored before it existed, as the tracker counted then: the geodesic
/// length over the accepted points within each segment.
enum PointDistanceBackfill {
    static func run(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE run_points SET distance_m = ? WHERE run_id = ? AND seq = ?")
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT run_id, seq, lat, lon, segment FROM run_points
                WHERE rejection IS NULL AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY run_id, seq
                """)
        var previous: (run: String, segment: Int, coordinate: Coordinate)?
        var total = 0.0
        while let row = try cursor.next() {
            let run: String = row[0]
            let segment: Int = row[4]
            guard let coordinate = try? Coordinate(latitude: row[2], longitude: row[3]) else { continue }
            if previous?.run != run { total = 0 }
            if let previous, previous.run == run, previous.segment == segment {
                total += Geodesic.wgs84.distance(previous.coordinate, coordinate)
            }
            previous = (run, segment, coordinate)
            try update.execute(arguments: [total, run, row[1] as Int])
        }
    }
}
