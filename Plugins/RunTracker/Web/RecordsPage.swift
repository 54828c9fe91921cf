import Foundation
import Hummingbird
import MeridianCore
import MeridianWeb

/// `/records`: the personal records with how each improved, and the distance of the last 12 weeks and months.
struct RecordsPage {
    let history: RunHistory
    let site: WebSite

    func response() async throws -> Response {
        let figures = RunFigures(units: site.units)
        let report = try await RunHistoryRoutes.mapped { try await history.records() }
        let deletedRuns = Set(report.history.filter { $0.runDeleted == true }.map(\.runID))
        func link(_ record: PersonalRecord) -> String? { deletedRuns.contains(record.runID) ? nil : RunLinks.run(record.runID) }
        func name(_ activity: Activity, _ distance: RecordDistance) -> String {
            activity == .run ? distance.label : "\(distance.label) (\(activity.rawValue))"
        }
        let current = report.records.sorted { ($0.activity.rawValue, $0.distance) < ($1.activity.rawValue, $1.distance) }.map { record in
            Current(distance: name(record.activity, record.distance),
                    time: record.distance == .longest ? figures.distance(record.distanceMetres) : figures.duration(record.elapsedTime),
                    pace: PaceOrSpeed.text(secondsPerKilometre: record.pace, activity: record.activity, units: site.units), runName: record.runName, href: link(record), date: site.format.day(record.achievedAt))
        }
        // Every effort that beat all earlier ones, newest first: computed from the saved runs, so files imported
        // in any order still give the true progression.
        let progressions = report.progression.map { progression in
            Progression(distance: name(progression.activity, progression.distance), entries: progression.steps.reversed().map { step in
                let longest = progression.distance == .longest
                let improvement = longest ? step.improvementMetres.map { "+" + figures.distance($0) }
                    : step.improvementSeconds.map { "−" + figures.duration($0) }
                return Entry(date: site.format.day(step.achievedAt),
                             time: longest ? figures.distance(step.distanceMetres) : figures.duration(step.elapsedTime),
                             improvement: improvement ?? "first", runName: step.runName, href: RunLinks.run(step.runID))
            })
        }
        let weeks = try await RunPeriodTotals.totals(in: history.store, by: .week, count: 12, timeZone: site.timeZone)
        let months = try await RunPeriodTotals.totals(in: history.store, by: .month, count: 12, timeZone: site.timeZone)
        let model = Model(zone: site.format.zoneName(at: Date()), current: current, hasRecords: !current.isEmpty,
                          weeks: chart(weeks, label: { site.format.shortDay($0) }, title: "Distance per week, last 12 weeks"),
                          months: chart(months, label: { String(site.format.month($0).prefix(3)) }, title: "Distance per month, last 12 months"),
                          progressions: progressions, hasProgressions: !progressions.isEmpty)
        return try site.page(title: "Records", body: RunTemplates.set.render("records", model), path: "/records")
    }

    private func chart(_ periods: [PeriodTotals], label: (Date) -> String, title: String) -> String {
        let unit = site.units == .metric ? 1000 : UnitSystem.metresPerMile
        return BarChart().svg(periods.map { period in
            let distance = period.totals.distance
            return BarChart.Bar(label: label(period.start), value: distance,
                                valueText: distance > 0 ? NumberText.fixed(distance / unit, decimals: distance / unit < 100 ? 1 : 0) : "")
        }, title: "\(title), in \(site.units == .metric ? "km" : "miles")")
    }

    struct Model {
        var zone: String
        var current: [Current]
        var hasRecords: Bool
        var weeks: String
        var months: String
        var progressions: [Progression]
        var hasProgressions: Bool
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
