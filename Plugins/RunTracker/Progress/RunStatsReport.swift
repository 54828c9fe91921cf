import Foundation
import GRDB
import MeridianCore

/// Totals per calendar period of the saved runs a `RunFilter` selects (the runs `GET /v1/runs` lists for the same
/// filter), every period of the range included, with the totals of the whole range and the trend.
///
/// JSON: `{"by", "time_zone", "periods": [period…], "totals": {…}, "trend": {…}}`. A period is `{"start", "end",
/// "label", "runs", "distance_m", "moving_s", "ascent_m", "avg_pace_s_per_km", "avg_speed_mps", "longest_run_id"}`
/// (`end` exclusive; pace is moving time per km and speed distance over moving time, `null` without distance or
/// moving time; `longest_run_id` `null` without runs); `totals` has the same keys without `start`, `end`, `label`.
/// The range is `from` (or the first run's period) to `to` (or now).
public struct RunStatsReport: Sendable, Encodable {
    public var by: StatsPeriod
    public var timeZone: String
    public var periods: [PeriodTotals]
    public var totals: StatsTotals
    public var trend: StatsTrend

    /// The most periods a report may hold.
    public static let maximumPeriods = 5_000

    /// The report for `filter` by `period` in `timeZone`; `now` ends a range without `to`.
    public static func make(by period: StatsPeriod, filter: RunFilter, timeZone: TimeZone, now: Date = Date(),
                            in db: Database) throws -> RunStatsReport {
        if let from = filter.from, let to = filter.to, to <= from {
            throw ProgressError.invalid(field: "to", message: "\(ISO8601.string(from: to)) is not after from (\(ISO8601.string(from: from)))")
        }
        var conditions = ["deleted_at IS NULL", "state = 'stopped'"]
        var arguments: [DatabaseValue] = []
        for condition in filter.conditions {
            conditions.append(condition.sql)
            arguments.append(condition.argument)
        }
        let runs = try Row.fetchAll(db, sql: """
            SELECT id, started_at, distance_m, moving_s, ascent_m FROM runs WHERE \(conditions.joined(separator: " AND "))
            ORDER BY started_at, id
            """, arguments: StatementArguments(arguments)).map(StatsRun.init)
        let calendar = StatsPeriod.calendar(in: timeZone)
        var periods: [PeriodTotals] = []
        if let first = filter.from ?? runs.first?.startedAt {
            let last = filter.to.map { $0.addingTimeInterval(-0.001) } ?? max(now, runs.last?.startedAt ?? now)
            var interval = period.interval(containing: first, in: calendar)
            while let current = interval, current.start <= last {
                guard periods.count < maximumPeriods else {
                    throw ProgressError.invalid(field: "by", message: "the range holds more than \(maximumPeriods) \(period.rawValue)s; give a later from, an earlier to, or a longer period")
                }
                periods.append(PeriodTotals(interval: current, label: period.label(of: current, in: calendar)))
                interval = period.interval(containing: current.end, in: calendar)
            }
        }
        var totals = StatsTotals()
        var index = 0
        for run in runs {
            totals.add(run)
            while index < periods.count, run.startedAt >= periods[index].end { index += 1 }
            if index < periods.count, run.startedAt >= periods[index].start { periods[index].totals.add(run) }
        }
        let withDistance = periods.indices.filter { periods[$0].totals.pace != nil }
        let trend = StatsTrend(
            distance: TrendLine(indices: periods.indices.map(Double.init), values: periods.map(\.totals.distance)),
            pace: TrendLine(indices: withDistance.map(Double.init), values: withDistance.compactMap { periods[$0].totals.pace }))
        return RunStatsReport(by: period, timeZone: timeZone.identifier, periods: periods, totals: totals, trend: trend)
    }
}

/// The figures of one run that totals add up.
struct StatsRun {
    var id: String
    var startedAt: Date
    var distance: Double
    var movingTime: Double
    var ascent: Double

    init(row: Row) {
        id = row[0]
        startedAt = Date(timeIntervalSince1970: row[1])
        distance = row[2] ?? 0
        movingTime = row[3] ?? 0
        ascent = row[4] ?? 0
    }
}

/// Totals of some runs: `{"runs", "distance_m", "moving_s", "ascent_m", "avg_pace_s_per_km", "avg_speed_mps",
/// "longest_run_id"}`.
public struct StatsTotals: Sendable, Equatable, Encodable {
    public var runs = 0
    public var distance = 0.0
    public var movingTime = 0.0
    public var ascent = 0.0
    public var longestRunID: String?
    private var longest = -1.0

    /// Moving time per kilometre; `nil` without distance or moving time.
    public var pace: Double? { distance > 0 && movingTime > 0 ? movingTime / distance * 1000 : nil }
    /// Distance over moving time, m/s; `nil` without distance or moving time.
    public var speed: Double? { distance > 0 && movingTime > 0 ? distance / movingTime : nil }

    mutating func add(_ run: StatsRun) {
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

    public func encode(to encoder: any Encoder) throws {
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
public struct PeriodTotals: Sendable, Equatable, Encodable {
    public var start: Date
    public var end: Date
    /// `2024-W13`, `2024-03` or `2024`.
    public var label: String
    public var totals = StatsTotals()

    init(interval: DateInterval, label: String) {
        start = interval.start
        end = interval.end
        self.label = label
    }

    enum CodingKeys: String, CodingKey {
        case start, end, label
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(label, forKey: .label)
        try totals.encode(to: encoder)
    }
}
