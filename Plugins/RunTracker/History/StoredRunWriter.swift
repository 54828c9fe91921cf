import Foundation
import GRDB
import MeridianCore

/// Writes a finished run with all its points in one transaction, then saves it like the run tracker does
/// (`RunCompletion.didSave`). Used to import generated runs (benchmarks, demos, tests).
public enum StoredRunWriter {
    /// Inserts `run` as a stopped run with summary metrics computed from its points and returns the
    /// records it sets. Must run inside a write transaction.
    @discardableResult
    public static func insert(_ run: SyntheticRun, in db: Database, now: Date = Date()) throws -> [PersonalRecord] {
        try insert(id: run.id, name: run.name, activity: run.activity, startedAt: run.startedAt, points: run.points, in: db, now: now)
    }

    /// Inserts a stopped run made of `points` (in order) and returns the records it sets.
    @discardableResult
    public static func insert(id: String, name: String, activity: Activity, startedAt: Date, points: [TrackPoint],
                              in db: Database, now: Date = Date()) throws -> [PersonalRecord] {
        let run = (id: id, name: name, activity: activity, startedAt: startedAt, points: points)
        let progress = RunProgress(points: run.points, start: run.startedAt)
        let end = run.points.last?.time ?? run.startedAt
        let elapsed = end.timeIntervalSince(run.startedAt)
        let accepted = run.points.filter(\.isAccepted)
        let moving = zip(accepted, accepted.dropFirst()).reduce(0.0) { total, pair in
            pair.0.segment == pair.1.segment ? total + pair.1.time.timeIntervalSince(pair.0.time) : total
        }
        let distance = progress.totalDistance
        try db.execute(sql: """
            INSERT INTO runs (id, name, notes, activity, state, started_at, ended_at, distance_m, elapsed_s, timer_s,
                              moving_s, avg_pace_s_per_km, max_speed_mps, ascent_m, descent_m, points, rejected_points,
                              segments, updated_at)
            VALUES (?, ?, '', ?, 'stopped', ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)
            """, arguments: [run.id, run.name, run.activity.rawValue, run.startedAt.timeIntervalSince1970,
                             end.timeIntervalSince1970, distance, elapsed, moving, moving,
                             distance > 0 ? moving / distance * 1000 : nil,
                             accepted.compactMap(\.speed).max() ?? 0, run.points.count,
                             run.points.count - accepted.count, Set(run.points.map(\.segment)).count,
                             now.timeIntervalSince1970])
        let statement = try db.cachedStatement(sql: """
            INSERT INTO run_points (run_id, seq, time, lat, lon, altitude, speed, accuracy, segment, rejection)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for point in run.points {
            statement.setUncheckedArguments([
                run.id, point.sequence, point.time.timeIntervalSince1970, point.coordinate?.latitude,
                point.coordinate?.longitude, point.altitude, point.speed, point.horizontalAccuracy, point.segment,
                point.rejection?.rawValue,
            ])
            try statement.execute()
        }
        return try RunCompletion.didSave(runID: run.id, in: db, now: now)
    }
}
