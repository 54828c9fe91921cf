import Foundation
import Hummingbird
import MeridianCore
import MeridianWeb

/// `/records`: the personal records with how each improved, the goals' progress, and the distance of 12 weeks and 12 months: the last ones,
/// or the latest run's when it is older, or those ending with `?weeks=DATE` and `?months=DATE`, with links to earlier
/// and later ones.
struct RecordsPage {
    let history: RunHistory
    let site: WebSite

    func response(_ request: Request) async throws -> Response {
        let zone = site.timeZone
        let (weeksEnd, monthsEnd) = try ProgressRoutes.mappedNow {
            (
                try request.uri.queryParameters["weeks"].map { text throws(RunHistoryError) in
                    try RunListQuery.parseBound(String(text), field: "weeks", isUpperBound: false, timeZone: zone)
                },
                try request.uri.queryParameters["months"].map { text throws(RunHistoryError) in
                    try RunListQuery.parseBound(String(text), field: "months", isUpperBound: false, timeZone: zone)
                }
            )
        }
        let figures = RunFigures(units: site.units)
        let report = try await RunHistoryRoutes.mapped { try await history.records() }
        let deletedRuns = Set(report.history.filter { $0.runDeleted == true }.map(\.runID))
        func link(_ record: PersonalRecord) -> String? {
            deletedRuns.contains(record.runID) ? nil : RunLinks.run(record.runID)
        }
        func name(_ activity: Activity, _ distance: RecordDistance) -> String {
            activity == .run ? distance.label : "\(distance.label) (\(activity.rawValue))"
        }
        let current = report.records.sorted {
            ($0.activity.rawValue, $0.distance) < ($1.activity.rawValue, $1.distance)
        }.map { record in
            Current(
                distance: name(record.activity, record.distance),
                time: record.distance == .longest
                    ? figures.distance(record.distanceMetres) : figures.duration(record.elapsedTime),
                pace: PaceOrSpeed.text(secondsPerKilometre: record.pace, activity: record.activity, units: site.units),
                runName: record.runName, href: link(record), date: site.format.day(record.achievedAt))
        }
        // Every effort that beat all earlier ones, newest first: computed from the saved runs, so files imported
        // in any order still give the true progression.
        let progressions = report.progression.map { progression in
            Progression(
                distance: name(progression.activity, progression.distance),
                entries: progression.steps.reversed().map { step in
                    let longest = progression.distance == .longest
                    let improvement =
                        longest
                        ? step.improvementMetres.map { "+" + figures.distance($0) }
                        : step.improvementSeconds.map { "−" + figures.duration($0) }
                    return Entry(
                        date: site.format.day(step.achievedAt),
                        time: longest ? figures.distance(step.distanceMetres) : figures.duration(step.elapsedTime),
                        improvement: improvement ?? "first", runName: step.runName, href: RunLinks.run(step.runID))
                })
        }
        let weeks = try await RunPeriodTotals.totals(
            in: history.store, by: .week, count: 12, timeZone: zone, end: weeksEnd)
        let months = try await RunPeriodTotals.totals(
            in: history.store, by: .month, count: 12, timeZone: zone, end: monthsEnd)
        let weekMoves = RunPeriodTotals.neighbours(of: weeks, by: .week, timeZone: zone)
        let monthMoves = RunPeriodTotals.neighbours(of: months, by: .month, timeZone: zone)
        // Each link moves one chart and keeps the other where it is.
        func link(weeks: Date?, months: Date?) -> String {
            "/records?"
                + [("weeks", weeks), ("months", months)].compactMap { name, date in
                    date.map { "\(name)=\(LocalTime.day($0, in: zone))" }
                }.joined(separator: "&")
        }
        let shownWeeks = weeks.last?.start, shownMonths = months.last?.start
        let model = Model(
            zone: site.format.zoneName(at: Date()), current: current, hasRecords: !current.isEmpty,
            weeks: chart(
                weeks, label: { site.format.shortDay($0, reference: weeks.last?.start ?? Date()) },
                title: "Distance per week, 12 weeks"),
            months: chart(
                months, label: { String(site.format.month($0).prefix(3)) }, title: "Distance per month, 12 months"),
            weeksSpan: span(weeks, label: { site.format.day($0) }),
            monthsSpan: span(months, label: { site.format.month($0) }),
            weeksEarlier: weekMoves.earlier.map { link(weeks: $0, months: shownMonths) },
            weeksLater: weekMoves.later.map { link(weeks: $0, months: shownMonths) },
            monthsEarlier: monthMoves.earlier.map { link(weeks: shownWeeks, months: $0) },
            monthsLater: monthMoves.later.map { link(weeks: shownWeeks, months: $0) },
            progressions: progressions, hasProgressions: !progressions.isEmpty,
            goals: try await GoalsSection(history: history, site: site).html(),
            gear: try await GearSection(store: GearBook(store: history.store), site: site).html())
        return try site.page(title: "Records", body: RunTemplates.set.render("records", model), path: "/records")
    }

    /// "3 Jun 2024 – 26 Aug 2024": the first and last period shown.
    private func span(_ periods: [PeriodTotals], label: (Date) -> String) -> String {
        guard let first = periods.first, let last = periods.last else { return "" }
        return "\(label(first.start)) – \(label(last.start))"
    }

    private func chart(_ periods: [PeriodTotals], label: (Date) -> String, title: String) -> String {
        let unit = site.units == .metric ? 1000 : UnitSystem.metresPerMile
        return BarChart().svg(
            periods.map { period in
                let distance = period.totals.distance
                return BarChart.Bar(
                    label: label(period.start), value: distance,
                    valueText: distance > 0
                        ? NumberText.fixed(distance / unit, decimals: distance / unit < 100 ? 1 : 0) : "")
            }, title: "\(title), in \(site.units == .metric ? "km" : "miles")")
    }

    struct Model {
        var zone: String
        var current: [Current]
        var hasRecords: Bool
        var weeks: String
        var months: String
        var weeksSpan, monthsSpan: String
        var weeksEarlier, weeksLater, monthsEarlier, monthsLater: String?
        var progressions: [Progression]
        var hasProgressions: Bool
        /// The goals' progress (empty without goals).
        var goals: String
        /// The gear and its distances (empty without gear).
        var gear: String
    }

    struct Current {
        var distance, time, pace, runName: String
        var href: String?
        var date: String
    }

    struct Progression {
        var distance: String
        var entries: [Entry]
    }

    struct Entry {
        var date, time, improvement, runName: String
        var href: String?
    }
}
