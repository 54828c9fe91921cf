import Foundation
import GRDB
import MeridianCore

/// Best efforts per run and personal records per activity, kept in `run_best_efforts` and `record_history`.
///
/// Current records are not stored: they are the best effort of each activity and record (the shortest time, or
/// for `longest` the longest distance) over the saved, not deleted runs, so deleting or restoring a run recomputes
/// them by definition. The history keeps every record when it was set and outlives the run.
package enum RecordBook {
    /// The runs whose efforts count for current records.
    static let countingRuns = "r.deleted_at IS NULL AND r.state = 'stopped'"
    /// How efforts rank within an activity and record: shortest time first, longest distance first for `longest`.
    static let effortOrder =
        "CASE WHEN e.distance = 'longest' THEN -e.distance_m ELSE e.elapsed_s END, r.started_at, r.id"

    /// Replaces run `runID`'s best efforts with `efforts`.
    static func store(_ efforts: [BestEffort], runID: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM run_best_efforts WHERE run_id = ?", arguments: [runID])
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO run_best_efforts (run_id, distance, elapsed_s, start_offset_s, distance_m) VALUES (?, ?, ?, ?, ?)
                """)
        for effort in efforts {
            try insert.execute(arguments: [
                runID, effort.distance.rawValue, effort.elapsedTime, effort.startOffset, effort.distanceMetres
            ])
        }
    }

    /// Stores the efforts of a run being saved and appends the records it sets (among runs of its activity) to the
    /// history. Returns the new records (none when the run had been saved before with the same efforts).
    static func recordNewBests(_ efforts: [BestEffort], run: SavedRun, now: Date, in db: Database) throws
        -> [PersonalRecord]
    {
        let activity = run.activity ?? .other
        var newRecords: [PersonalRecord] = []
        for effort in efforts {
            let longest = effort.distance == .longest
            let previous = try Double.fetchOne(
                db,
                sql: """
                    SELECT \(longest ? "MAX(e.distance_m)" : "MIN(e.elapsed_s)") FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
                    WHERE e.distance = ? AND e.run_id <> ? AND r.activity = ? AND \(countingRuns)
                    """, arguments: [effort.distance.rawValue, run.id, activity.rawValue])
            if let previous, longest ? previous >= effort.distanceMetres : previous <= effort.elapsedTime { continue }
            let alreadyRecorded =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM record_history WHERE run_id = ? AND distance = ? AND elapsed_s = ? AND activity = ?)
                        """, arguments: [run.id, effort.distance.rawValue, effort.elapsedTime, activity.rawValue])
                ?? false
            if alreadyRecorded { continue }
            let record = PersonalRecord(
                activity: activity, distance: effort.distance, distanceMetres: effort.distanceMetres,
                elapsedTime: effort.elapsedTime, runID: run.id,
                achievedAt: run.startedAt.addingTimeInterval(effort.startOffset),
                runName: run.name, runDeleted: false, previousElapsedTime: longest ? nil : previous,
                previousDistanceMetres: longest ? previous : nil, recordedAt: now)
            try db.execute(
                sql: """
                    INSERT INTO record_history (distance, elapsed_s, run_id, run_name, achieved_at, previous_elapsed_s, recorded_at,
                        activity, distance_m, previous_distance_m)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    effort.distance.rawValue, effort.elapsedTime, run.id, run.name,
                    record.achievedAt.timeIntervalSince1970, record.previousElapsedTime, now.timeIntervalSince1970,
                    activity.rawValue, effort.distanceMetres, record.previousDistanceMetres
                ])
            newRecords.append(record)
        }
        try store(efforts, runID: run.id, in: db)
        return newRecords
    }

    /// The current record of every activity and record that has one: by activity, then shortest distance first.
    package static func current(in db: Database) throws -> [PersonalRecord] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT activity, distance, elapsed_s, distance_m, run_id, name, achieved_at FROM (
                    SELECT r.activity, e.distance, e.elapsed_s, e.distance_m, e.run_id, r.name,
                           r.started_at + e.start_offset_s AS achieved_at,
                           ROW_NUMBER() OVER (PARTITION BY r.activity, e.distance ORDER BY \(effortOrder)) AS place
                    FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
                    WHERE \(countingRuns))
                WHERE place = 1
                """)
        return rows.compactMap { row -> PersonalRecord? in
            guard let activity = Activity(rawValue: row[0]), let distance = RecordDistance(rawValue: row[1]) else {
                return nil
            }
            return PersonalRecord(
                activity: activity, distance: distance, distanceMetres: row[3], elapsedTime: row[2],
                runID: row[4], achievedAt: Date(timeIntervalSince1970: row[6]), runName: row[5])
        }.sorted { ($0.activity.rawValue, $0.distance) < ($1.activity.rawValue, $1.distance) }
    }

    /// Every record ever set, newest first; entries whose run was deleted or purged are marked.
    package static func history(in db: Database, distance: RecordDistance? = nil, activity: Activity? = nil) throws
        -> [PersonalRecord]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT h.distance, h.elapsed_s, h.run_id, h.run_name, h.achieved_at, h.previous_elapsed_s, h.recorded_at,
                       (r.id IS NULL OR r.deleted_at IS NOT NULL) AS deleted, h.activity, h.distance_m, h.previous_distance_m
                FROM record_history h LEFT JOIN runs r ON r.id = h.run_id
                WHERE (?1 IS NULL OR h.distance = ?1) AND (?2 IS NULL OR h.activity = ?2)
                ORDER BY h.achieved_at DESC, h.id DESC
                """, arguments: [distance?.rawValue, activity?.rawValue])
        return rows.compactMap { row -> PersonalRecord? in
            guard let distance = RecordDistance(rawValue: row[0]), let activity = Activity(rawValue: row[8]) else {
                return nil
            }
            return PersonalRecord(
                activity: activity, distance: distance, distanceMetres: row[9], elapsedTime: row[1],
                runID: row[2], achievedAt: Date(timeIntervalSince1970: row[4]), runName: row[3],
                runDeleted: row[7], previousElapsedTime: row[5], previousDistanceMetres: row[10],
                recordedAt: Date(timeIntervalSince1970: row[6]))
        }
    }

    /// The history entries set by run `runID` (the records it was flagged with when saved).
    package static func setBy(runID: String, in db: Database) throws -> [PersonalRecord] {
        try history(in: db).filter { $0.runID == runID }
    }

    /// How each record got to where it is: per activity and record, in the order the efforts were run, every effort
    /// that beat all earlier ones (of the saved, not deleted runs), with the improvement.
    package static func progression(
        in db: Database, distance: RecordDistance? = nil,
        activity: Activity? = nil
    ) throws -> [RecordProgression] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.activity, e.distance, e.elapsed_s, e.distance_m, e.run_id, r.name, r.started_at + e.start_offset_s AS achieved_at
                FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
                WHERE \(countingRuns) AND (?1 IS NULL OR e.distance = ?1) AND (?2 IS NULL OR r.activity = ?2)
                ORDER BY r.activity, e.distance, achieved_at, r.id
                """, arguments: [distance?.rawValue, activity?.rawValue])
        var progressions: [RecordProgression] = []
        for row in rows {
            guard let activity = Activity(rawValue: row[0]), let distance = RecordDistance(rawValue: row[1]) else {
                continue
            }
            if progressions.last?.activity != activity || progressions.last?.distance != distance {
                progressions.append(RecordProgression(activity: activity, distance: distance, steps: []))
            }
            let step = RecordStep(
                achievedAt: Date(timeIntervalSince1970: row[6]), runID: row[4], runName: row[5],
                elapsedTime: row[2], distanceMetres: row[3] ?? distance.metres)
            progressions[progressions.count - 1].add(step)
        }
        return progressions.sorted { ($0.activity.rawValue, $0.distance) < ($1.activity.rawValue, $1.distance) }
    }

    /// Recomputes every saved run's best efforts from its packed progress (building the progress from the points
    /// for runs saved without one) and returns the current records. Record history is left as it is.
    @discardableResult
    package static func rebuild(in db: Database) throws -> [PersonalRecord] {
        let runs = try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, r.started_at, p.samples, r.activity FROM runs r LEFT JOIN run_progress p ON p.run_id = r.id
                WHERE r.state = 'stopped'
                """)
        try db.execute(sql: "DELETE FROM run_best_efforts")
        for row in runs {
            let runID: String = row[0]
            guard let activity = Activity(rawValue: row[3]), !RecordDistance.kept(for: activity).isEmpty else {
                continue
            }
            let progress: RunProgress
            if let data: Data = row[2], let packed = RunProgress(packed: data) {
                progress = packed
            } else {
                progress = try ProgressStore.build(runID: runID, start: Date(timeIntervalSince1970: row[1]), in: db)
            }
            try store(progress.bestEfforts(for: activity), runID: runID, in: db)
        }
        return try current(in: db)
    }
}

/// How one record progressed: `{"activity", "distance", "steps": [step…]}`, oldest first.
package struct RecordProgression: Sendable, Equatable, Encodable {
    package var activity: Activity
    package var distance: RecordDistance
    package var steps: [RecordStep]

    /// Appends `step` when it beats the last step (a shorter time, or a longer distance for `longest`).
    mutating func add(_ step: RecordStep) {
        var step = step
        if let last = steps.last {
            if distance == .longest {
                guard step.distanceMetres > last.distanceMetres else { return }
                step.improvementMetres = step.distanceMetres - last.distanceMetres
            } else {
                guard step.elapsedTime < last.elapsedTime else { return }
                step.improvementSeconds = last.elapsedTime - step.elapsedTime
            }
        }
        steps.append(step)
    }
}

/// A record when it was set: `{"achieved_at", "run_id", "run_name", "elapsed_s", "distance_m", "improvement_s",
/// "improvement_m"}`; `improvement_s` is the time it took off the record before (`null` for the first and for
/// `longest`), `improvement_m` the distance `longest` gained (`null` otherwise).
package struct RecordStep: Sendable, Equatable, Encodable {
    package var achievedAt: Date
    package var runID: String
    package var runName: String
    package var elapsedTime: Double
    package var distanceMetres: Double
    @NullWhenAbsent package var improvementSeconds: Double? = nil
    @NullWhenAbsent package var improvementMetres: Double? = nil

    enum CodingKeys: String, CodingKey {
        case achievedAt
        case runID = "runId"
        case runName
        case elapsedTime = "elapsedS"
        case distanceMetres = "distanceM"
        case improvementSeconds = "improvementS"
        case improvementMetres = "improvementM"
    }
}
