import Foundation
import GRDB

/// Reads and writes `run_progress`, the packed (time, distance) samples of each saved run.
public enum ProgressStore {
    /// Builds run `runID`'s progress from its stored points.
    public static func build(runID: String, start: Date, in db: Database) throws -> RunProgress {
        RunProgress(points: try RunPoints.load(db, runID: runID), start: start)
    }

    /// Writes `progress` for run `runID`, replacing any earlier one.
    public static func save(_ progress: RunProgress, runID: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO run_progress (run_id, samples) VALUES (?, ?)",
                       arguments: [runID, progress.packed])
    }

    /// The stored progress of run `runID`, or one built from its points when none was stored
    /// (a run saved before history existed, or a run still being recorded).
    public static func load(runID: String, start: Date, in db: Database) throws -> RunProgress {
        if let data = try Data.fetchOne(db, sql: "SELECT samples FROM run_progress WHERE run_id = ?", arguments: [runID]),
           let progress = RunProgress(packed: data) {
            return progress
        }
        return try build(runID: runID, start: start, in: db)
    }
}
