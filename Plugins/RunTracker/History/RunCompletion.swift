import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// What the run tracker calls when a run is saved (stopped and long enough, or imported).
package enum RunCompletion {
    /// Stores what history needs, inside the caller's transaction: the packed progress (for splits and records),
    /// the best efforts of the records its activity keeps, the run's track in its route and its segment efforts
    /// (matched with `matcher`), and its activity's default gear. `progress` and `geometry` are the run's when the
    /// caller built them from the points in memory (an import, before its transaction); when `nil` they are built from
    /// the stored points.
    /// Returns the personal records the run sets among runs of its activity (empty when saved again); publish them
    /// with `publish(_:to:)`. Unknown run ids are a `RunHistoryError.notFound`.
    @discardableResult
    package static func didSave(
        runID: String, progress: RunProgress? = nil, geometry: RunGeometry? = nil,
        matcher: RouteMatcher = RouteMatcher(), in db: Database
    ) throws -> [PersonalRecord] {
        try didSave(runID: runID, progress: progress, geometry: geometry, matcher: matcher, in: db, now: Date())
    }

    /// `didSave(runID:progress:geometry:matcher:in:)` with an explicit clock (for tests).
    @discardableResult
    package static func didSave(
        runID: String, progress: RunProgress? = nil, geometry: RunGeometry? = nil,
        matcher: RouteMatcher = RouteMatcher(), in db: Database, now: Date
    ) throws -> [PersonalRecord] {
        guard let run = try SavedRun.fetch(db, id: runID) else { throw RunHistoryError.notFound(runID: runID) }
        // A live run's points are read back once, for both.
        let points = progress == nil || geometry == nil ? try RunPoints.load(db, runID: runID) : []
        let progress = progress ?? RunProgress(points: points, start: run.startedAt)
        try ProgressStore.save(progress, runID: runID, in: db)
        try RunGeometry.didSave(
            run: run, geometry: geometry ?? RunGeometry(points: points, start: run.startedAt), matcher: matcher, in: db)
        try GearBook.assignDefault(runID: runID, activity: run.activity, in: db)
        let records = try RecordBook.recordNewBests(
            progress.bestEfforts(for: run.activity ?? .other), run: run, now: now, in: db)
        // In the webhooks' outbox with the records themselves: both are stored, or neither.
        for record in records { try EventOutbox.append("record.new", record, in: db) }
        return records
    }

    /// Publishes each new record as a `record.new` event (payload: the record object); `didSave` put it in the
    /// webhooks' outbox already.
    package static func publish(_ records: [PersonalRecord], to events: EventBus) {
        for record in records { events.publish("record.new", record, journaled: true) }
    }
}

/// The few columns of a run that saving and records need.
struct SavedRun: Sendable {
    var id: String
    var name: String
    var activity: Activity?
    var startedAt: Date

    static func fetch(_ db: Database, id: String) throws -> SavedRun? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT id, name, activity, started_at FROM runs WHERE id = ?",
                arguments: [id])
        else { return nil }
        return SavedRun(
            id: row[0], name: row[1], activity: Activity(rawValue: row[2]),
            startedAt: Date(timeIntervalSince1970: row[3]))
    }
}
