import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs stats [--by week|month|year] [--activity A] [--from DATE] [--to DATE] [--json]`.
struct RunsStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals per week, month or year, with the trend.",
        discussion: """
            Weeks are ISO weeks (Monday to Sunday) in the configured time_zone; every period of the range is listed, \
            empty ones too. Without --by the period is the shortest of week, month and year that gives at most \
            \(StatsPeriod.automaticLimit) lines. The totals add up to the runs `meridian runs list` shows for the same \
            --from, --to and --activity. The trend is the least-squares slope of each period's distance and average \
            pace (speed for rides). Activities are never mixed into one pace or trend: without --activity, runs of \
            several activities get one table each.
            """)
    @OptionGroup var store: RunsStoreOptions
    @Option(
        name: .long,
        help: "week, month or year (default: the shortest giving at most \(StatsPeriod.automaticLimit) lines).") var by:
        String?
    @Option(name: .long, help: "Only runs of this activity: run, walk, hike, ride or other.") var activity: String?
    @Option(name: .long, help: "From this date (2024-05-01, local, or an ISO 8601 time); default: the first run.")
    var from: String?
    @Option(name: .long, help: "To this date (a bare date includes the whole day); default: now.") var to: String?

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let (period, filter) = try await usageErrors {
                (
                    try by.map { text throws(ProgressError) in try StatsPeriod.parse(text, field: "--by") },
                    RunFilter(
                        from: try from.map { text throws(RunHistoryError) in
                            try RunListQuery.parseBound(
                                text, field: "--from", isUpperBound: false, timeZone: settings.timeZone)
                        },
                        to: try to.map { text throws(RunHistoryError) in
                            try RunListQuery.parseBound(
                                text, field: "--to", isUpperBound: true, timeZone: settings.timeZone)
                        },
                        activity: try activity.map { text throws(RunHistoryError) in
                            try RunFilter.parseActivity(text, field: "--activity")
                        })
                )
            }
            func report(_ period: StatsPeriod?, _ filter: RunFilter) async throws -> RunStatsReport {
                try await usageErrors {
                    try await opened.database.read { db in
                        try RunStatsReport.make(by: period, filter: filter, timeZone: settings.timeZone, in: db)
                    }
                }
            }
            let all = try await report(period, filter)
            if store.json { return try store.printJSON(all) }
            guard all.activities.count > 1 else {
                return print(text(all, units: settings.units, timeZone: settings.timeZone), terminator: "")
            }
            // One table per activity over the same periods, then what they add up to (no pace: no mixing).
            for activity in all.activities {
                var one = filter
                one.activity = activity
                one.from = filter.from ?? all.periods.first?.start
                print("\(activity.rawValue):")
                print(text(try await report(all.by, one), units: settings.units, timeZone: settings.timeZone))
            }
            let totals = all.totals
            print(
                "all activities: \(Counted.string(totals.runs, "run")), \(DistanceFormat.string(metres: totals.distance, units: settings.units)), "
                    + "moving \(TimeFormat.duration(seconds: totals.movingTime)), ascent \(ElevationText.string(metres: totals.ascent, units: settings.units))"
            )
        }
    }

    /// A report of one activity (or of several given together) as a table: pace for runs, speed for rides.
    func text(_ report: RunStatsReport, units: UnitSystem, timeZone: TimeZone) -> String {
        let activity = report.activities.count == 1 ? report.activities[0] : .run
        let label = PaceOrSpeed.label(activity)
        var lines = [
            "\(RunText.pad("\(report.by.rawValue) (\(report.timeZone))", 24))  runs  \(RunText.pad("distance", 9))  \(RunText.pad("moving", 8))  \(RunText.pad(label, 10))  ascent"
        ]
        func row(_ label: String, _ totals: StatsTotals) -> String {
            let runs = String(totals.runs)
            let start = "\(RunText.pad(label, 24))  \(String(repeating: " ", count: max(0, 4 - runs.count)))\(runs)"
            // A period without runs is a dash, not "0 ft  0:00  --:-- /mi  0 ft".
            guard totals.runs > 0 else { return start + "  -" }
            return start + "  \(RunText.pad(DistanceFormat.string(metres: totals.distance, units: units), 9))  "
                + "\(RunText.pad(TimeFormat.duration(seconds: totals.movingTime), 8))  "
                + "\(RunText.pad(PaceOrSpeed.text(secondsPerKilometre: totals.pace, activity: activity, units: units), 10))  "
                + ElevationText.string(metres: totals.ascent, units: units)
        }
        for period in report.periods {
            let label =
                report.by == .week ? "\(period.label) (\(LocalTime.day(period.start, in: timeZone)))" : period.label
            lines.append(row(label, period.totals))
        }
        lines.append(row("total", report.totals))
        let unit = report.by.rawValue
        if let slope = report.trend.distanceSlope {
            var trend = "trend: distance \(ProgressText.signedDistance(slope, units: units)) per \(unit)"
            if let pace = report.trend.paceSlope, activity == .ride, let first = report.trend.pace.first,
                let last = report.trend.pace.last
            {
                let from = PaceOrSpeed.text(secondsPerKilometre: first, activity: .ride, units: units)
                let to = PaceOrSpeed.text(secondsPerKilometre: last, activity: .ride, units: units)
                trend += ", speed \(from) → \(to) (\(pace <= 0 ? "getting faster" : "getting slower"))"
            } else if let pace = report.trend.paceSlope {
                let perUnit = units == .metric ? pace : pace * UnitSystem.metresPerMile / 1000
                trend +=
                    ", pace \(perUnit > 0 ? "+" : "")\(NumberText.fixed(perUnit, decimals: 1)) s\(units == .metric ? "/km" : "/mi") per \(unit) (\(pace <= 0 ? "getting faster" : "getting slower"))"
            }
            lines.append(trend)
        } else {
            lines.append("trend: needs at least two \(unit)s")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
