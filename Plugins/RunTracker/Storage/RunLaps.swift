import ActivityFiles
import Foundation
import GRDB

/// The laps of a run in table `run_laps`: an imported run's as the device recorded them (FIT `lap`, TCX `Lap`), a live
/// run's as the lap button closed them. Shown with the run and written back by the TCX and FIT exports.
package enum RunLaps {
    /// Stores `laps` for `runID` (inside the import's transaction).
    static func write(_ laps: [DeviceLap], runID: String, in db: Database) throws {
        for lap in laps { try append(lap, runID: runID, in: db) }
    }

    /// Stores `lap` after the run's last one.
    static func append(_ lap: DeviceLap, runID: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO run_laps (run_id, idx, start, timer_s, distance_m, avg_heart_rate_bpm, max_heart_rate_bpm, trigger)
                VALUES (?, (SELECT COALESCE(MAX(idx) + 1, 0) FROM run_laps WHERE run_id = ?), ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                runID, runID, lap.start.timeIntervalSince1970, lap.timerTime, lap.distance,
                lap.averageHeartRate, lap.maxHeartRate, lap.trigger?.rawValue
            ])
    }

    /// The run's device laps in order (none for a live run or a file without laps).
    package static func load(_ db: Database, runID: String) throws -> [DeviceLap] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT start, timer_s, distance_m, avg_heart_rate_bpm, max_heart_rate_bpm, trigger FROM run_laps
                WHERE run_id = ? ORDER BY idx
                """, arguments: [runID]
        ).map { row in
            DeviceLap(
                start: Date(timeIntervalSince1970: row["start"]), timerTime: row["timer_s"],
                distance: row["distance_m"],
                averageHeartRate: row["avg_heart_rate_bpm"], maxHeartRate: row["max_heart_rate_bpm"],
                trigger: (row["trigger"] as String?).flatMap(LapTrigger.init(rawValue:)))
        }
    }
}

extension RunStore {
    /// The laps stored for `runID`.
    func laps(runID: String) async throws -> [DeviceLap] {
        try await store.database.read { db in try RunLaps.load(db, runID: runID) }
    }
}
