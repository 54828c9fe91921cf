import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs stats --by week|month|year [--activity A] [--from DATE] [--to DATE] [--json]`.
struct RunsStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals per week, month or year, with the trend.",
        discussion: """
            Weeks are ISO weeks (Monday to Sunday) in the configured time_zone; every period of the range is listed, \
            empty ones too. The totals add up to the runs `meridian runs list` shows for the same --from, --to and \
            --activity. The trend is the least-squares slope of each period's distance and average pace.
            """)
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "week, month or year.") var by = "week"
    @Option(name: .long, help: "Only runs of this activity: run, walk, hike, ride or other.") var activity: String?
    @Option(name: .long, help: "From this date (2024-05-01, local, or an ISO 8601 time); default: the first run.") var from: String?
    @Option(name: .long, help: "To this date (a bare date includes the whole day); default: now.") var to: String?

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let report = try await usageErrors {
                let period = try StatsPeriod.parse(by, field: "--by")
                let filter = RunFilter(
                    from: try from.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "--from", isUpperBound: false, timeZone: settings.timeZone) },
                    to: try to.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "--to", isUpperBound: true, timeZone: settings.timeZone) },
                    activity: try activity.map { text throws(RunHistoryError) in try RunFilter.parseActivity(text, field: "--activity") })
                return try await opened.database.read { db in
                    try RunStatsReport.make(by: period, filter: filter, timeZone: settings.timeZone, in: db)
                }
            }
            if store.json { return try store.printJSON(report) }
            print(text(report, units: settings.units, timeZone: settings.timeZone), terminator: "")
        }
    }

    func text(_ report: RunStatsReport, units: UnitSystem, timeZone: TimeZone) -> String {
        var lines = ["\(RunText.pad("\(report.by.rawValue) (\(report.timeZone))", 24))  runs  \(RunText.pad("distance", 9))  \(RunText.pad("moving", 8))  \(RunText.pad("pace", 10))  ascent"]
        func row(_ label: String, _ totals: StatsTotals) -> String {
            let pace = TimeFormat.pace(secondsPerKilometre: totals.pace ?? .infinity, units: units)
            let runs = String(totals.runs)
            return "\(RunText.pad(label, 24))  \(String(repeating: " ", count: max(0, 4 - runs.count)))\(runs)  "
                + "\(RunText.pad(DistanceFormat.string(metres: totals.distance, units: units), 9))  "
                + "\(RunText.pad(TimeFormat.duration(seconds: totals.movingTime), 8))  \(RunText.pad(pace, 10))  "
                + ElevationText.string(metres: totals.ascent, units: units)
        }
        for period in report.periods {
            let label = report.by == .week ? "\(period.label) (\(LocalTime.day(period.start, in: timeZone)))" : period.label
            lines.append(row(label, period.totals))
        }
        lines.append(row("total", report.totals))
        let unit = report.by.rawValue
        if let slope = report.trend.distanceSlope {
            var trend = "trend: distance \(ProgressText.signedDistance(slope, units: units)) per \(unit)"
            if let pace = report.trend.paceSlope {
                let perUnit = units == .metric ? pace : pace * UnitSystem.metresPerMile / 1000
                trend += ", pace \(perUnit > 0 ? "+" : "")\(NumberText.fixed(perUnit, decimals: 1)) s\(units == .metric ? "/km" : "/mi") per \(unit) (\(pace <= 0 ? "getting faster" : "getting slower"))"
            }
            lines.append(trend)
        } else {
            lines.append("trend: needs at least two \(unit)s")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
