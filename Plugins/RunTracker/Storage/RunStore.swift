import ActivityFiles
import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// Reads and writes runs and their points. Every write is one small transaction.
package struct RunStore: Sendable {
    package let store: Store
    /// How saved runs are grouped into routes (the `route_match_m` option).
    package let matcher: RouteMatcher
    private var database: any DatabaseWriter { store.database }

    /// Opens the run tables in `store` (and the history tables saving needs), creating or updating them.
    package init(store: Store, matcher: RouteMatcher = RouteMatcher()) throws(StoreError) {
        self.store = store
        self.matcher = matcher
        try RunTrackerSchema.migrate(store)
    }

    // MARK: Writing

    /// Creates the row of a new run.
    package func insert(_ state: EngineState, summary: RunSummary) async throws {
        let liveState = try Self.encode(state)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (id, name, notes, activity, state, started_at, updated_at, live_state)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    summary.id, summary.name, summary.notes, summary.activity.rawValue, summary.state.rawValue,
                    summary.startedAt.timeIntervalSince1970, Date().timeIntervalSince1970, liveState
                ])
            try Self.update(db, summary: summary, liveState: liveState)
        }
    }

    /// What a live run's write does with its laps.
    package enum LapWrite: Sendable {
        /// Stores these laps after the run's last one.
        case append([DeviceLap])
        /// Replaces the run's points and laps with the points written and these laps (a live run tracked again with
        /// late points).
        case replace([DeviceLap])
    }

    /// Appends `points` and `laps` (or replaces the stored ones, `LapWrite.replace`) and updates the run's metrics and
    /// live state, in one transaction. When the run has just been stopped long enough to save,
    /// `RunCompletion.didSave` runs in the same transaction; the personal records it sets are returned.
    @discardableResult
    package func persist(
        _ state: EngineState, summary: RunSummary, points: [TrackPoint], laps: LapWrite = .append([])
    ) async throws -> [PersonalRecord] {
        let liveState: String? = summary.state == .stopped ? nil : try Self.encode(state)
        let matcher = matcher
        return try await database.write { db in
            switch laps {
            case .append(let laps):
                try RunLaps.write(laps, runID: summary.id, in: db)
            case .replace(let laps):
                try db.execute(sql: "DELETE FROM run_points WHERE run_id = ?", arguments: [summary.id])
                try db.execute(sql: "DELETE FROM run_laps WHERE run_id = ?", arguments: [summary.id])
                try RunLaps.write(laps, runID: summary.id, in: db)
            }
            return try Self.write(db, summary: summary, liveState: liveState, points: points, matcher: matcher)
        }
    }

    /// Tracks a recording with `RunImport.track` (the live engine at full speed, so the metrics are computed
    /// exactly as live) and stores it in one transaction: row, points, metrics and `RunCompletion.didSave`.
    /// Returns `nil` when the recording has no samples or nothing to save (`PreparedImport.reasonToSkip`); a short
    /// one is saved (only live runs have drafts). (`prepareImport` then `store` do the same in two steps, so that
    /// several imports can overlap.)
    package func importRun(
        _ recording: RecordedActivity, id: String = UUID().uuidString.lowercased(), name: String,
        activity: Activity? = nil, settings: TrackerSettings = TrackerSettings()
    ) throws -> ImportedRun? {
        guard
            let prepared = try Self.prepareImport(
                recording, id: id, name: name, activity: activity, settings: settings),
            prepared.reasonToSkip == nil
        else {
            return nil
        }
        return try store(prepared)
    }

    /// The database-free part of an import: tracks the recording and builds its packed progress.
    /// Returns `nil` when the recording has no samples. Pass the result to `store(_:)`; meanwhile the next
    /// recording can be prepared. The recording is let go once tracked (pass it with `consume` to free its samples).
    package static func prepareImport(
        _ recording: consuming RecordedActivity, id: String = UUID().uuidString.lowercased(),
        name: String, activity: Activity? = nil,
        settings: TrackerSettings = TrackerSettings()
    ) throws -> PreparedImport? {
        let laps = recording.laps
        guard
            let tracked = RunImport.track(consume recording, id: id, name: name, activity: activity, settings: settings)
        else {
            return nil
        }
        let summary = tracked.summary
        return PreparedImport(
            summary: summary, points: tracked.points, inference: tracked.inference,
            reasonToSkip: tracked.reasonToSkip,
            progress: RunProgress(points: tracked.points, start: summary.startedAt),
            geometry: RunGeometry(points: tracked.points, start: summary.startedAt), laps: laps)
    }

    /// Stores a prepared import in one transaction: row, points, metrics and `RunCompletion.didSave` (whatever its
    /// `reasonToSkip`: check it first).
    package func store(_ prepared: consuming PreparedImport) throws -> ImportedRun {
        let matcher = matcher
        var pending = Optional(consume prepared)
        return try database.write { db in try Self.insert(&pending, matcher: matcher, in: db) }
    }

    /// Inserts `pending` and leaves it `nil`: its points are let go once written, before the history is built from
    /// its progress and geometry, so a long import holds them through one step only.
    private static func insert(_ pending: inout PreparedImport?, matcher: RouteMatcher, in db: Database) throws
        -> ImportedRun
    {
        guard var prepared = pending.take() else { preconditionFailure("a prepared import stored twice") }
        let summary = prepared.summary
        try db.execute(
            sql: """
                INSERT INTO runs (id, name, notes, activity, state, started_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                summary.id, summary.name, summary.notes, summary.activity.rawValue, summary.state.rawValue,
                summary.startedAt.timeIntervalSince1970, Date().timeIntervalSince1970
            ])
        try PointWriter.write(prepared.points, runID: summary.id, in: db)
        prepared.points = []
        let records = try finish(
            db, summary: summary, liveState: nil, progress: prepared.progress, geometry: prepared.geometry,
            matcher: matcher)
        try RunLaps.write(prepared.laps, runID: summary.id, in: db)
        return ImportedRun(summary: summary, records: records, inference: prepared.inference)
    }

    /// When a run counts as already stored: a stored run (not deleted) of the same activity that started within
    /// `startWindow` seconds and whose distance differs by at most `distanceFraction` of the longer.
    package struct DuplicateRule: Sendable {
        package var startWindow: Double
        package var distanceFraction: Double
    }

    /// Stores prepared imports in one transaction, each like `store(_:)`; one with a `reasonToSkip` is skipped and
    /// reported with it; with a `duplicates` rule, a run matching a stored one (or one stored earlier in the same
    /// call) is skipped and reported with the run it matches.
    package func store(_ prepared: consuming [PreparedImport], duplicates: DuplicateRule?) throws
        -> [RunImporter.Outcome]
    {
        let matcher = matcher
        var pending: [PreparedImport?] = []
        for item in consume prepared { pending.append(item) }
        return try database.write { db in
            try pending.indices.map { index in
                guard let summary = pending[index]?.summary else {
                    preconditionFailure("a prepared import stored twice")
                }
                if let reason = pending[index]?.reasonToSkip { return .skipped(summary, reason: reason) }
                if let duplicates, let existing = try Self.storedRun(matching: summary, rule: duplicates, in: db) {
                    return .duplicate(summary, existing: existing)
                }
                return .imported(try Self.insert(&pending[index], matcher: matcher, in: db))
            }
        }
    }

    /// The stored run `summary` duplicates under `rule`, or `nil`.
    private static func storedRun(matching summary: RunSummary, rule: DuplicateRule, in db: Database) throws
        -> RunSummary?
    {
        let start = summary.startedAt.timeIntervalSince1970
        let candidates = try RunSummary.fetchAll(
            db,
            where: """
                deleted_at IS NULL AND activity = ? AND started_at BETWEEN ? AND ? AND state IN ('stopped', 'draft')
                """, arguments: [summary.activity.rawValue, start - rule.startWindow, start + rule.startWindow])
        return candidates.first { candidate in
            abs(candidate.distance - summary.distance) <= rule.distanceFraction
                * max(candidate.distance, summary.distance)
        }
    }

    /// Deletes a draft run; its points go with it (`ON DELETE CASCADE`). Returns false when `id` is not a draft.
    package func discardDraft(id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM runs WHERE id = ? AND state = 'draft'", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Appends `points`, updates the run row and, when the run is saved, calls `RunCompletion.didSave` with
    /// `progress` and `geometry` (built from the stored points when `nil`).
    private static func write(
        _ db: Database, summary: RunSummary, liveState: String?, points: [TrackPoint],
        progress: RunProgress? = nil, geometry: RunGeometry? = nil,
        matcher: RouteMatcher
    ) throws -> [PersonalRecord] {
        try PointWriter.write(points, runID: summary.id, in: db)
        return try finish(
            db, summary: summary, liveState: liveState, progress: progress, geometry: geometry, matcher: matcher)
    }

    /// Updates the run row after its points are written and, when the run is saved, calls `RunCompletion.didSave`.
    private static func finish(
        _ db: Database, summary: RunSummary, liveState: String?, progress: RunProgress?, geometry: RunGeometry?,
        matcher: RouteMatcher
    ) throws -> [PersonalRecord] {
        try update(db, summary: summary, liveState: liveState)
        guard summary.state == .stopped else { return [] }
        return try RunCompletion.didSave(
            runID: summary.id, progress: progress, geometry: geometry, matcher: matcher, in: db)
    }

    /// Writes the tracker's figures and state into the run's row. Not its name and notes: they are set when the row
    /// is inserted and changed only by edits (`RunHistory.edit`), which a live run's flushes must not undo.
    private static func update(_ db: Database, summary: RunSummary, liveState: String?) throws {
        try db.execute(
            sql: """
                UPDATE runs SET state = ?, ended_at = ?, distance_m = ?, elapsed_s = ?, timer_s = ?,
                    moving_s = ?, avg_pace_s_per_km = ?, max_speed_mps = ?, ascent_m = ?, descent_m = ?, points = ?,
                    rejected_points = ?, segments = ?, distance_source = ?, avg_heart_rate_bpm = ?, max_heart_rate_bpm = ?,
                    avg_cadence_spm = ?, avg_power_w = ?, device_name = ?, device_distance_m = ?, device_timer_s = ?,
                    salvaged_at_byte = ?, salvage_reason = ?, updated_at = ?, live_state = ?
                WHERE id = ?
                """,
            arguments: [
                summary.state.rawValue, summary.endedAt?.timeIntervalSince1970,
                summary.distance, summary.elapsedTime, summary.timerTime, summary.movingTime, summary.averagePace,
                summary.maxSpeed, summary.ascent, summary.descent, summary.pointCount, summary.rejectedPointCount,
                summary.segmentCount, summary.distanceSource.rawValue, summary.averageHeartRate, summary.maxHeartRate,
                summary.averageCadence, summary.averagePower, summary.device?.name, summary.device?.distance,
                summary.device?.timerTime, summary.salvaged?.byteOffset, summary.salvaged?.reason,
                Date().timeIntervalSince1970, liveState, summary.id
            ])
    }

    // MARK: Reading

    /// The saved tracker state of every run that was tracking or paused (normally at most one).
    /// The rows read are plain values (Sendable), so the read runs on GRDB's reader, not on the caller's thread.
    package func activeStates() async throws -> [EngineState] {
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, live_state FROM runs WHERE state IN ('tracking', 'paused') AND deleted_at IS NULL ORDER BY started_at
                    """
            ).map { row in (id: row[0] as String, state: row[1] as String?) }
        }
        return try rows.map { row in
            guard let text = row.state else {
                throw RunStoreError.unreadableLiveState(runID: row.id, detail: "no live state was stored")
            }
            do {
                return try Self.stateDecoder().decode(EngineState.self, from: Data(text.utf8))
            } catch {
                throw RunStoreError.unreadableLiveState(runID: row.id, detail: "\(error)")
            }
        }
    }

    /// The run object of `id`, or `nil`.
    package func summary(id: String) async throws -> RunSummary? {
        try await database.read { db in try RunSummary.fetch(db, id: id) }
    }

    /// All points of run `runID` in order (see `RunPoints.load`).
    package func points(runID: String) async throws -> [TrackPoint] {
        try await database.read { db in try RunPoints.load(db, runID: runID) }
    }

    static func encode(_ state: EngineState) throws -> String {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    static func stateDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// A tracked recording not yet stored (`RunStore.prepareImport`).
package struct PreparedImport: Sendable {
    package var summary: RunSummary
    package var points: [TrackPoint]
    /// How the activity was inferred; `nil` when the caller or the file gave it.
    package var inference: ActivityInference?
    /// Why it is no activity to save (`TrackedRecording.reasonToSkip`), or `nil`.
    package var reasonToSkip: String?
    /// The packed progress, for splits and records.
    var progress: RunProgress
    /// The samples and track, for routes and segments.
    var geometry: RunGeometry
    /// The device's laps (FIT `lap`, TCX `Lap`).
    var laps: [DeviceLap] = []
}

/// A stored recording: the run object, the records it set, and how its activity was inferred (`nil` when the caller
/// or the file gave it). Its points are in the store (`RunStore.points(runID:)`).
package struct ImportedRun: Sendable {
    package var summary: RunSummary
    package var records: [PersonalRecord]
    package var inference: ActivityInference?
}
