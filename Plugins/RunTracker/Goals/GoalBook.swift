import Foundation
import GRDB
import MeridianCore

/// The goals (table `goals`) and the periods in which each was reached (`goal_reached`), counted over the saved runs
/// exactly as `runs stats` counts them: runs started in the period, of the goal's activity, not deleted.
package enum GoalBook {
    /// Stores a new goal.
    package static func add(_ request: GoalRequest, now: Date, in db: Database) throws -> Goal {
        try db.execute(
            sql: "INSERT INTO goals (activity, period, metric, target, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                request.activity.rawValue, request.period.rawValue, request.metric.rawValue, request.target,
                now.timeIntervalSince1970
            ])
        return Goal(
            id: db.lastInsertedRowID, activity: request.activity, period: request.period, metric: request.metric,
            target: request.target, createdAt: now)
    }

    /// Every goal, oldest first.
    package static func list(in db: Database) throws -> [Goal] {
        try Row.fetchAll(db, sql: "SELECT id, activity, period, metric, target, created_at FROM goals ORDER BY id")
            .compactMap { row in
                guard let activity = Activity(rawValue: row[1]), let period = StatsPeriod(rawValue: row[2]),
                    let metric = GoalMetric(rawValue: row[3])
                else { return nil }
                return Goal(
                    id: row[0], activity: activity, period: period, metric: metric, target: row[4],
                    createdAt: Date(timeIntervalSince1970: row[5]))
            }
    }

    /// Deletes goal `id` with its reached periods; a `goalNotFound` error when there is none.
    package static func remove(id: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM goals WHERE id = ?", arguments: [id])
        guard db.changesCount > 0 else { throw GoalError.notFound(id: String(id)) }
    }

    /// Every goal's progress in its period holding `now`, in `timeZone`.
    package static func progress(
        now: Date, timeZone: TimeZone, units: UnitSystem, in db: Database
    ) throws -> [GoalProgress] {
        let calendar = StatsPeriod.calendar(in: timeZone)
        return try list(in: db).compactMap { goal in
            guard let interval = goal.period.interval(containing: now, in: calendar) else { return nil }
            let reachedAt = try Double.fetchOne(
                db, sql: "SELECT reached_at FROM goal_reached WHERE goal_id = ? AND period_start = ?",
                arguments: [goal.id, interval.start.timeIntervalSince1970])
            return GoalProgress(
                goal: goal, done: try done(goal, in: interval, db: db), interval: interval, now: now,
                reachedAt: reachedAt.map(Date.init(timeIntervalSince1970:)), units: units, calendar: calendar)
        }
    }

    /// The goals saved run `runID` brought to their target in its period (in `timeZone`) for the first time,
    /// recorded so each goal is reached once per period. Periods that ended before the goal was set are not counted,
    /// so importing an old history does not reach a new goal in every past week. None for a run that is not saved.
    package static func reached(
        byRun runID: String, now: Date, timeZone: TimeZone, units: UnitSystem, in db: Database
    ) throws -> [GoalReached] {
        guard
            let run = try Row.fetchOne(
                db, sql: "SELECT activity, started_at FROM runs r WHERE r.id = ? AND \(RecordBook.countingRuns)",
                arguments: [runID]),
            let activity = Activity(rawValue: run[0])
        else { return [] }
        let started = Date(timeIntervalSince1970: run[1])
        let calendar = StatsPeriod.calendar(in: timeZone)
        var reached: [GoalReached] = []
        for goal in try list(in: db) where goal.activity == activity {
            guard let interval = goal.period.interval(containing: started, in: calendar),
                interval.end > goal.createdAt
            else { continue }
            let done = try done(goal, in: interval, db: db)
            guard done >= goal.target else { continue }
            try db.execute(
                sql: """
                    INSERT INTO goal_reached (goal_id, period_start, reached_at, run_id) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """,
                arguments: [goal.id, interval.start.timeIntervalSince1970, now.timeIntervalSince1970, runID])
            guard db.changesCount > 0 else { continue }
            reached.append(
                GoalReached(
                    goal: goal, runId: runID,
                    progress: GoalProgress(
                        goal: goal, done: done, interval: interval, now: max(now, interval.start), reachedAt: now,
                        units: units, calendar: calendar)))
        }
        return reached
    }

    /// Distance or moving time of the goal's activity's saved runs started in `interval`.
    private static func done(_ goal: Goal, in interval: DateInterval, db: Database) throws -> Double {
        let column = goal.metric == .distance ? "distance_m" : "moving_s"
        let filter = RunFilter(from: interval.start, to: interval.end, activity: goal.activity)
        let conditions = [RecordBook.countingRuns] + filter.conditions.map { "r.\($0.sql)" }
        return try Double.fetchOne(
            db,
            sql: "SELECT TOTAL(r.\(column)) FROM runs r WHERE \(conditions.joined(separator: " AND "))",
            arguments: StatementArguments(filter.conditions.map(\.argument))) ?? 0
    }
}

/// The payload of a `goal.reached` event: the goal, the run that reached it and the period's progress.
package struct GoalReached: Sendable, Equatable, Encodable {
    package var goal: Goal
    package var runId: String
    package var progress: GoalProgress
}

/// Problems with a goal request.
package enum GoalError: Error, CustomStringConvertible, Equatable {
    case notFound(id: String)

    package var description: String {
        switch self {
        case .notFound(let id):
            return "no goal with id '\(id)'; list goals with `meridian goals list` or GET /v1/goals"
        }
    }
}
