import Foundation
import GRDB
import MeridianCore

/// Totals per calendar period of the saved runs a `RunFilter` selects (the runs `GET /v1/runs` lists for the same
/// filter), every period of the range included, with the totals of the whole range and the trend.
///
/// JSON: `{"by", "time_zone", "activities", "periods": [period…], "totals": {…}, "trend": {…}}`. A period is
/// `{"start", "end", "label", "runs", "distance_m", "moving_s", "ascent_m", "avg_pace_s_per_km", "avg_speed_mps",
/// "longest_run_id"}` (`end` exclusive; pace is moving time per km and speed distance over moving time, `null`
/// without distance or moving time and over runs of several activities; `longest_run_id` `null` without runs);
/// `totals` has the same keys without `start`, `end`, `label`. `activities` names the activities of the runs
/// counted; over more than one, every figure of the trend is `null` (a ride's pace or distance is no trend of a
/// runner's). The range is `from` (or the first run's period) to `to` (or now).
package struct RunStatsReport: Sendable, Encodable {
    package var by: StatsPeriod
    package var timeZone: String
    /// The activities of the runs counted, in the order of `Activity.allCases` (run, walk, hike, ride, other).
    package var activities: [Activity]
    package var periods: [PeriodTotals]
    package var totals: StatsTotals
    package var trend: StatsTrend

    /// The most periods a report may hold.
    package static let maximumPeriods = 5_000

    /// The report for `filter` by `period` in `timeZone` (without a period, the shortest of week, month and year
    /// that cuts the range into at most `StatsPeriod.automaticLimit` periods); `now` ends a range without `to`.
    package static func make(
        by period: StatsPeriod?, filter: RunFilter, timeZone: TimeZone, now: Date = Date(),
        in db: Database
    ) throws -> RunStatsReport {
        if let from = filter.from, let to = filter.to, to <= from {
            throw ProgressError.invalid(
                field: "to", message: "\(ISO8601.string(from: to)) is not after from (\(ISO8601.string(from: from)))")
        }
        var conditions = ["deleted_at IS NULL", "state = 'stopped'"]
        var arguments: [DatabaseValue] = []
        for condition in filter.conditions {
            conditions.append(condition.sql)
            arguments.append(condition.argument)
        }
        let runs = try Row.fetchAll(
            db,
            sql: """
                SELECT id, started_at, distance_m, moving_s, ascent_m, activity FROM runs WHERE \(conditions.joined(separator: " AND "))
                ORDER BY started_at, id
                """, arguments: StatementArguments(arguments)
        ).map(StatsRun.init)
        let calendar = StatsPeriod.calendar(in: timeZone)
        var periods: [PeriodTotals] = []
        var chosen = period ?? .week
        if let first = filter.from ?? runs.first?.startedAt {
            let last = filter.to.map { $0.addingTimeInterval(-0.001) } ?? max(now, runs.last?.startedAt ?? now)
            if let period {
                guard let listed = period.periods(from: first, through: last, limit: maximumPeriods, in: calendar)
                else {
                    throw ProgressError.invalid(
                        field: "by",
                        message:
                            "the range holds more than \(maximumPeriods) \(period.rawValue)s; give a later from, an earlier to, or a longer period"
                    )
                }
                periods = listed
            } else {
                (chosen, periods) = StatsPeriod.automatic(from: first, through: last, in: calendar)
            }
        }
        var totals = StatsTotals()
        var index = 0
        for run in runs {
            totals.add(run)
            while index < periods.count, run.startedAt >= periods[index].end { index += 1 }
            if index < periods.count, run.startedAt >= periods[index].start { periods[index].totals.add(run) }
        }
        let present = Set(runs.compactMap(\.activity))
        let activities = Activity.allCases.filter(present.contains)
        // Over several activities there is no trend: the lines are fitted through no periods at all.
        let trended = activities.count > 1 ? [] : periods
        let withDistance = trended.indices.filter { trended[$0].totals.pace != nil }
        let trend = StatsTrend(
            distance: TrendLine(indices: trended.indices.map(Double.init), values: trended.map(\.totals.distance)),
            pace: TrendLine(
                indices: withDistance.map(Double.init), values: withDistance.compactMap { trended[$0].totals.pace }))
        return RunStatsReport(
            by: chosen, timeZone: timeZone.identifier, activities: activities, periods: periods, totals: totals,
            trend: trend)
    }
}

/// The figures of one run that totals add up.
struct StatsRun {
    var id: String
    var startedAt: Date
    var distance: Double
    var movingTime: Double
    var ascent: Double
    var activity: Activity?

    init(row: Row) {
        id = row[0]
        startedAt = Date(timeIntervalSince1970: row[1])
        distance = row[2] ?? 0
        movingTime = row[3] ?? 0
        ascent = row[4] ?? 0
        activity = (row[5] as String?).flatMap(Activity.init(rawValue:))
    }
}

/// Totals of some runs: `{"runs", "distance_m", "moving_s", "ascent_m", "avg_pace_s_per_km", "avg_speed_mps",
/// "longest_run_id"}`.
package struct StatsTotals: Sendable, Equatable, Encodable {
    package var runs = 0
    package var distance = 0.0
    package var movingTime = 0.0
    package var ascent = 0.0
    package var longestRunID: String?
    private var longest = -1.0
    /// The activity of the last run added, and whether the runs are of more than one.
    private var activity: Activity?
    private var mixed = false

    /// Moving time per kilometre; `nil` without distance or moving time, and over runs of several activities.
    package var pace: Double? { !mixed && distance > 0 && movingTime > 0 ? movingTime / distance * 1000 : nil }
    /// Distance over moving time, m/s; `nil` without distance or moving time, and over runs of several activities.
    package var speed: Double? { !mixed && distance > 0 && movingTime > 0 ? distance / movingTime : nil }

    mutating func add(_ run: StatsRun) {
        mixed = mixed || (runs > 0 && run.activity != activity)
        activity = run.activity
        runs += 1
        distance += run.distance
        movingTime += run.movingTime
        ascent += run.ascent
        if run.distance > longest {
            longest = run.distance
            longestRunID = run.id
        }
    }

    enum CodingKeys: String, CodingKey {
        case runs
        case distance = "distanceM"
        case movingTime = "movingS"
        case ascent = "ascentM"
        case pace = "avgPaceSPerKm"
        case speed = "avgSpeedMps"
        case longestRunID = "longestRunId"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(distance, forKey: .distance)
        try container.encode(movingTime, forKey: .movingTime)
        try container.encode(ascent, forKey: .ascent)
        try container.encode(pace, forKey: .pace)
        try container.encode(speed, forKey: .speed)
        try container.encode(longestRunID, forKey: .longestRunID)
    }
}

/// One period of a stats report: its start and (exclusive) end, its label and its totals.
package struct PeriodTotals: Sendable, Equatable, Encodable {
    package var start: Date
    package var end: Date
    /// `2024-W13`, `2024-03` or `2024`.
    package var label: String
    package var totals = StatsTotals()

    init(interval: DateInterval, label: String) {
        start = interval.start
        end = interval.end
        self.label = label
    }

    enum CodingKeys: String, CodingKey {
        case start, end, label
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(label, forKey: .label)
        try totals.encode(to: encoder)
    }
}
