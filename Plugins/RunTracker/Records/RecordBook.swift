import Foundation
import GRDB
import MeridianCore

/// Best efforts per run and personal records, kept in `run_best_efforts` and `record_history`.
///
/// Current records are not stored: they are the fastest best effort over the saved, not deleted runs of
/// activity `run`, so deleting or restoring a run recomputes them by definition. The history keeps
/// every record when it was set and outlives the run.
public enum RecordBook {
    /// The runs whose efforts count for current records.
    static let countingRuns = "r.deleted_at IS NULL AND r.activity = 'run' AND r.state = 'stopped'"

    /// Replaces run `runID`'s best efforts with `efforts`.
    static func store(_ efforts: [BestEffort], runID: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM run_best_efforts WHERE run_id = ?", arguments: [runID])
        let insert = try db.cachedStatement(sql: """
            INSERT INTO run_best_efforts (run_id, distance, elapsed_s, start_offset_s) VALUES (?, ?, ?, ?)
            """)
        for effort in efforts {
            try insert.execute(arguments: [runID, effort.distance.rawValue, effort.elapsedTime, effort.startOffset])
        }
    }

    /// Stores the efforts of a run being saved and appends the records it sets to the history.
    /// Returns the new records (none when the run had been saved before with the same efforts).
    static func recordNewBests(_ efforts: [BestEffort], run: SavedRun, now: Date, in db: Database) throws -> [PersonalRecord] {
        var newRecords: [PersonalRecord] = []
        for effort in efforts {
            let previous = try Double.fetchOne(db, sql: """
                SELECT MIN(e.elapsed_s) FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
                WHERE e.distance = ? AND e.run_id <> ? AND \(countingRuns)
                """, arguments: [effort.distance.rawValue, run.id])
            if let previous, previous <= effort.elapsedTime { continue }
            let alreadyRecorded = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM record_history WHERE run_id = ? AND distance = ? AND elapsed_s = ?)
                """, arguments: [run.id, effort.distance.rawValue, effort.elapsedTime]) ?? false
            if alreadyRecorded { continue }
            let record = PersonalRecord(distance: effort.distance, elapsedTime: effort.elapsedTime, runID: run.id,
                                        achievedAt: run.startedAt.addingTimeInterval(effort.startOffset),
                                        runName: run.name, runDeleted: false, previousElapsedTime: previous,
                                        recordedAt: now)
            try db.execute(sql: """
                INSERT INTO record_history (distance, elapsed_s, run_id, run_name, achieved_at, previous_elapsed_s, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [effort.distance.rawValue, effort.elapsedTime, run.id, run.name,
                                 record.achievedAt.timeIntervalSince1970, previous, now.timeIntervalSince1970])
            newRecords.append(record)
        }
        try store(efforts, runID: run.id, in: db)
        return newRecords
    }

    /// The current record for every distance that has one, shortest distance first.
    public static func current(in db: Database) throws -> [PersonalRecord] {
        // SQLite takes the bare columns of a MIN() aggregate from the row holding the minimum.
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.distance, MIN(e.elapsed_s) AS elapsed_s, e.run_id, r.name, r.started_at + e.start_offset_s AS achieved_at
            FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
            WHERE \(countingRuns)
            GROUP BY e.distance
            """)
        return rows.compactMap { row -> PersonalRecord? in
            guard let distance = RecordDistance(rawValue: row[0]) else { return nil }
            return PersonalRecord(distance: distance, elapsedTime: row[1], runID: row[2],
                                  achievedAt: Date(timeIntervalSince1970: row[4]), runName: row[3])
        }.sorted { $0.distance < $1.distance }
    }

    /// Every record ever set, newest first; entries whose run was deleted or purged are marked.
    public static func history(in db: Database, distance: RecordDistance? = nil) throws -> [PersonalRecord] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT h.distance, h.elapsed_s, h.run_id, h.run_name, h.achieved_at, h.previous_elapsed_s, h.recorded_at,
                   (r.id IS NULL OR r.deleted_at IS NOT NULL) AS deleted
            FROM record_history h LEFT JOIN runs r ON r.id = h.run_id
            WHERE ?1 IS NULL OR h.distance = ?1
            ORDER BY h.achieved_at DESC, h.id DESC
            """, arguments: [distance?.rawValue])
        return rows.compactMap { row -> PersonalRecord? in
            guard let distance = RecordDistance(rawValue: row[0]) else { return nil }
            return PersonalRecord(distance: distance, elapsedTime: row[1], runID: row[2],
                                  achievedAt: Date(timeIntervalSince1970: row[4]), runName: row[3],
                                  runDeleted: row[7], previousElapsedTime: row[5],
                                  recordedAt: Date(timeIntervalSince1970: row[6]))
        }
    }

    /// The history entries set by run `runID` (the records it was flagged with when saved).
    public static func setBy(runID: String, in db: Database) throws -> [PersonalRecord] {
        try history(in: db).filter { $0.runID == runID }
    }

    /// Recomputes every run's best efforts from its packed progress (building the progress from the points
    /// for runs saved without one) and returns the current records. Record history is left as it is.
    @discardableResult
    public static func rebuild(in db: Database) throws -> [PersonalRecord] {
        let runs = try Row.fetchAll(db, sql: """
            SELECT r.id, r.started_at, p.samples FROM runs r LEFT JOIN run_progress p ON p.run_id = r.id
            WHERE r.activity = 'run' AND r.state = 'stopped'
            """)
        try db.execute(sql: "DELETE FROM run_best_efforts")
        for row in runs {
            let runID: String = row[0]
            let progress: RunProgress
            if let data: Data = row[2], let packed = RunProgress(packed: data) {
                progress = packed
            } else {
                progress = try ProgressStore.build(runID: runID, start: Date(timeIntervalSince1970: row[1]), in: db)
            }
            try store(progress.bestEfforts(), runID: runID, in: db)
        }
        return try current(in: db)
    }
}
