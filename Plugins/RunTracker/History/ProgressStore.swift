import Foundation
import GRDB

/// Reads and writes `run_progress`, the packed (time, distance) samples and the pauses of each saved run.
package enum ProgressStore {
    /// Builds run `runID`'s progress from its stored points.
    package static func build(runID: String, start: Date, in db: Database) throws -> RunProgress {
        RunProgress(points: try RunPoints.load(db, runID: runID), start: start)
    }

    /// Writes `progress` for run `runID`, replacing any earlier one.
    package static func save(_ progress: RunProgress, runID: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO run_progress (run_id, samples, pauses) VALUES (?, ?, ?)",
            arguments: [runID, progress.packed, progress.packedPauses])
    }

    /// The stored progress of run `runID`, or one built from its points when none was stored
    /// (a run saved before history existed, or a run still being recorded) or what is stored cannot be read.
    package static func load(runID: String, start: Date, in db: Database) throws -> RunProgress {
        if let row = try Row.fetchOne(
            db, sql: "SELECT samples, pauses FROM run_progress WHERE run_id = ?", arguments: [runID]),
            let samples: Data = row["samples"], var progress = RunProgress(packed: samples),
            let pauses: Data = row["pauses"], progress.unpackPauses(pauses)
        {
            return progress
        }
        return try build(runID: runID, start: start, in: db)
    }
}
