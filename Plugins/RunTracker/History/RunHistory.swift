import ActivityFiles
import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// Run history over the store: listing, details, edits, deletion with undo, and records.
/// Every operation is one transaction.
package struct RunHistory: Sendable {
    package let store: Store
    /// How long a deleted run can be restored before it is purged (30 days).
    package var retention: TimeInterval

    package static let defaultRetention: TimeInterval = 30 * 86_400

    /// What training load and the run detail's heart-rate zones are computed with (the configuration's heart rates,
    /// sex and threshold pace).
    package var training: TrainingSettings

    package init(
        store: Store, retention: TimeInterval = RunHistory.defaultRetention,
        training: TrainingSettings = TrainingSettings()
    ) {
        self.store = store
        self.retention = retention
        self.training = training
    }

    // MARK: Listing

    /// A page of saved runs (or of restorable deleted runs), newest first.
    package func list(_ query: RunListQuery, now: Date = Date()) async throws -> RunPage {
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        if query.deleted {
            conditions.append("deleted_at IS NOT NULL AND deleted_at > ?")
            arguments.append((now.timeIntervalSince1970 - retention).databaseValue)
        } else {
            conditions.append(
                query.drafts ? "deleted_at IS NULL AND state = 'draft'" : "deleted_at IS NULL AND state = 'stopped'")
        }
        if let cursor = query.cursor {
            conditions.append("(started_at < ? OR (started_at = ? AND id < ?))")
            arguments += [cursor.startedAt.databaseValue, cursor.startedAt.databaseValue, cursor.id.databaseValue]
        }
        if let name = query.name, !name.isEmpty {
            conditions.append("name LIKE ? ESCAPE '\\'")
            arguments.append(("%" + Self.escapeLike(name) + "%").databaseValue)
        }
        for condition in RunFilter(from: query.from, to: query.to, activity: query.activity).conditions {
            conditions.append(condition.sql)
            arguments.append(condition.argument)
        }
        if let activity = query.activity {
            conditions.append("activity = ?")
            arguments.append(activity.rawValue.databaseValue)
        }
        let sql = """
            SELECT \(RunSummary.columns), deleted_at FROM runs WHERE \(conditions.joined(separator: " AND "))
            ORDER BY started_at DESC, id DESC LIMIT \(query.limit + 1)
            """
        let retention = retention
        let values = arguments
        return try await store.database.read { db in
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values))
            let items = try rows.prefix(query.limit).map { row in
                let deletedAt = (row["deleted_at"] as Double?).map(Date.init(timeIntervalSince1970:))
                return RunListItem(
                    run: try RunSummary(row: row), deletedAt: deletedAt,
                    purgeAt: deletedAt?.addingTimeInterval(retention))
            }
            let next =
                rows.count > query.limit
                ? items.last.map {
                    RunCursor(startedAt: $0.run.startedAt.timeIntervalSince1970, id: $0.run.id).token
                } : nil
            return RunPage(runs: items, nextCursor: next)
        }
    }

    /// `%`, `_` and `\` match themselves in a LIKE pattern escaped with `\`.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    // MARK: One run

    /// The run `id` (not deleted).
    package func summary(id: String) async throws -> RunSummary {
        try await store.database.read { db in try Self.liveRun(db, id: id) }
    }

    /// The run with its splits from the packed progress: the fast path of the run detail.
    package func summaryWithSplits(id: String) async throws -> (RunSummary, [SplitTable]) {
        try await store.database.read { db in
            let run = try Self.liveRun(db, id: id)
            let progress = try ProgressStore.load(runID: id, start: run.startedAt, in: db)
            return (run, progress.standardSplits)
        }
    }

    /// The full detail of run `id`: summary, analysis, records it set, its edit log, laps, gear and training load.
    package func detail(id: String, maxPoints: Int = RunAnalysis.defaultMaxPoints, keepPrivate: Bool = false)
        async throws -> RunDetail
    {
        let privacy = try await privacyZones(keepPrivate: keepPrivate)
        var detail = try await store.database.read { db in
            let run = try Self.liveRun(db, id: id)
            let points = try RunPoints.load(db, runID: id)
            return RunDetail(
                run: run,
                analysis: RunAnalysis(
                    points: points, start: run.startedAt, activity: run.activity, maxPoints: maxPoints,
                    maxHeartRate: training.maxHeartRate, privacy: privacy),
                newRecords: try RecordBook.setBy(runID: id, in: db),
                edits: try Self.edits(db, runID: id),
                laps: RunLap.list(try RunLaps.load(db, runID: id), runStart: run.startedAt),
                gear: try GearBook.ofRun(db, run: run))
        }
        detail.trainingLoad = try await TrainingBook.load(of: id, settings: training, in: store.database)
        return detail
    }

    /// The run and its points (accepted and rejected), for export and pictures.
    package func track(id: String) async throws -> (RunSummary, [TrackPoint]) {
        try await store.database.read { db in
            let run = try Self.liveRun(db, id: id)
            return (run, try RunPoints.load(db, runID: id))
        }
    }

    /// The laps of run `id`: the device's (FIT `lap`, TCX `Lap`) or the lap button's.
    package func laps(id: String) async throws -> [DeviceLap] {
        try await store.database.read { db in try RunLaps.load(db, runID: id) }
    }

    static func liveRun(_ db: Database, id: String) throws -> RunSummary {
        guard let run = try RunSummary.fetch(db, id: id) else { throw RunHistoryError.notFound(runID: id) }
        guard try Double.fetchOne(db, sql: "SELECT deleted_at FROM runs WHERE id = ?", arguments: [id]) == nil else {
            throw RunHistoryError.deleted(runID: id)
        }
        return run
    }

    static func edits(_ db: Database, runID: String) throws -> [RunEditRecord] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT field, old_value, new_value, edited_at FROM run_edits WHERE run_id = ? ORDER BY edited_at, rowid
                """, arguments: [runID]
        ).map {
            RunEditRecord(field: $0[0], oldValue: $0[1], newValue: $0[2], editedAt: Date(timeIntervalSince1970: $0[3]))
        }
    }

    // MARK: Changes

    /// Changes the name and/or notes of run `id`, logging each changed field with its old and new value.
    @discardableResult
    package func edit(id: String, _ edit: RunEdit, now: Date = Date()) async throws -> RunSummary {
        let edit = try edit.validated()
        return try await store.database.write { db in
            let run = try Self.liveRun(db, id: id)
            let changes = [("name", run.name, edit.name), ("notes", run.notes, edit.notes)]
                .compactMap { field, old, new in new.flatMap { $0 == old ? nil : (field, old, $0) } }
            for (field, old, new) in changes {
                try db.execute(
                    sql: "UPDATE runs SET \(field) = ?, updated_at = ? WHERE id = ?",
                    arguments: [new, now.timeIntervalSince1970, id])
                try db.execute(
                    sql:
                        "INSERT INTO run_edits (run_id, field, old_value, new_value, edited_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, field, old, new, now.timeIntervalSince1970])
            }
            return try Self.liveRun(db, id: id)
        }
    }

    /// The edit log of run `id`, oldest first.
    package func edits(id: String) async throws -> [RunEditRecord] {
        try await store.database.read { db in
            _ = try Self.liveRun(db, id: id)
            return try Self.edits(db, runID: id)
        }
    }

    /// Deletes runs (all or none): they disappear from lists and records at once and can be restored
    /// until `purgeAt`. Deleting an already deleted run keeps its first deletion time.
    package func delete(ids: [String], now: Date = Date()) async throws -> DeletionReceipt {
        let retention = retention
        return try await store.database.write { db in
            try Self.purge(db, before: now.addingTimeInterval(-retention))
            for id in ids {
                guard let run = try RunSummary.fetch(db, id: id) else { throw RunHistoryError.notFound(runID: id) }
                guard !run.state.isActive else { throw RunHistoryError.active(runID: id) }
                try db.execute(
                    sql: "UPDATE runs SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL",
                    arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, id])
            }
            return DeletionReceipt(deleted: ids, purgeAt: now.addingTimeInterval(retention))
        }
    }

    /// Restores deleted runs (all or none) that have not been purged.
    package func restore(ids: [String], now: Date = Date()) async throws -> [RunSummary] {
        let retention = retention
        return try await store.database.write { db in
            try Self.purge(db, before: now.addingTimeInterval(-retention))
            return try ids.map { id in
                guard let run = try RunSummary.fetch(db, id: id) else { throw RunHistoryError.notFound(runID: id) }
                let deletedAt = try Double.fetchOne(
                    db, sql: "SELECT deleted_at FROM runs WHERE id = ?", arguments: [id])
                guard deletedAt != nil else { throw RunHistoryError.notDeleted(runID: id) }
                try db.execute(
                    sql: "UPDATE runs SET deleted_at = NULL, updated_at = ? WHERE id = ?",
                    arguments: [now.timeIntervalSince1970, id])
                return run
            }
        }
    }

    /// Purges runs deleted longer ago than the retention (with their points, progress and efforts;
    /// the record history keeps their records). Returns how many runs were purged.
    @discardableResult
    package func purgeExpired(now: Date = Date()) async throws -> Int {
        let retention = retention
        return try await store.database.write { db in try Self.purge(db, before: now.addingTimeInterval(-retention)) }
    }

    /// `purgeExpired` for synchronous callers (start-up).
    @discardableResult
    package func purgeExpiredNow(now: Date = Date()) throws -> Int {
        let retention = retention
        return try store.database.write { db in try Self.purge(db, before: now.addingTimeInterval(-retention)) }
    }

    /// Deletes the expired runs; their points, progress, best efforts and edits go with them (`ON DELETE CASCADE`).
    @discardableResult
    static func purge(_ db: Database, before cutoff: Date) throws -> Int {
        try db.execute(
            sql: "DELETE FROM runs WHERE deleted_at IS NOT NULL AND deleted_at <= ?",
            arguments: [cutoff.timeIntervalSince1970])
        return db.changesCount
    }

    // MARK: Records

    /// Current records, the record history and each record's progression, optionally of one record and activity.
    package func records(distance: RecordDistance? = nil, activity: Activity? = nil) async throws -> RecordsReport {
        try await store.database.read { db in
            RecordsReport(
                records: try RecordBook.current(in: db).filter {
                    (distance == nil || $0.distance == distance) && (activity == nil || $0.activity == activity)
                },
                history: try RecordBook.history(in: db, distance: distance, activity: activity),
                progression: try RecordBook.progression(in: db, distance: distance, activity: activity))
        }
    }

    /// Recomputes every run's best efforts from the packed progress and returns the current records.
    @discardableResult
    package func rebuildRecords() async throws -> [PersonalRecord] {
        try await store.database.write { db in try RecordBook.rebuild(in: db) }
    }
}

/// The answer to a deletion.
package struct DeletionReceipt: Sendable, Equatable, Codable {
    package var deleted: [String]
    /// Until when the runs can be restored.
    package var purgeAt: Date
}

/// Current records, their history (newest first) and how each progressed (oldest first).
package struct RecordsReport: Sendable, Equatable, Encodable {
    package var records: [PersonalRecord]
    package var history: [PersonalRecord]
    package var progression: [RecordProgression]
}

/// The run detail: the run object, its analysis, the records it set and its edit log.
package struct RunDetail: Sendable, Encodable {
    package var run: RunSummary
    package var analysis: RunAnalysis
    /// Records set by this run when it was saved (flagged even if they have been beaten since).
    package var newRecords: [PersonalRecord]
    package var edits: [RunEditRecord]
    /// Its laps: the device's, or the lap button's of a live run (empty without).
    package var laps: [RunLap]
    /// Its shoes or bike, with the distance they have done once this run is counted.
    @NullWhenAbsent package var gear: RunGear?
    /// The run's training load (absent without heart rate and threshold pace).
    @NullWhenAbsent package var trainingLoad: TrainingLoad?
}
