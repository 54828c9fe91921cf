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
        let current = report.records.sorted { $0.distance < $1.distance }.map { record in
            Current(distance: record.distance.label, time: figures.duration(record.elapsedTime), pace: figures.pace(record.pace),
                    runName: record.runName, href: link(record), date: site.format.day(record.achievedAt))
        }
        let progressions = RecordDistance.allCases.compactMap { distance -> Progression? in
            let entries = report.history.filter { $0.distance == distance }
            guard !entries.isEmpty else { return nil }
            return Progression(distance: distance.label, entries: entries.sorted { ($0.recordedAt ?? $0.achievedAt) > ($1.recordedAt ?? $1.achievedAt) }.map { entry in
                Entry(date: site.format.day(entry.achievedAt), time: figures.duration(entry.elapsedTime),
                      improvement: entry.previousElapsedTime.map { "−" + figures.duration($0 - entry.elapsedTime) } ?? "first",
                      runName: entry.runName, href: entry.runDeleted == true ? nil : RunLinks.run(entry.runID))
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

    private func chart(_ totals: [RunPeriodTotals.Total], label: (Date) -> String, title: String) -> String {
        let unit = site.units == .metric ? 1000 : UnitSystem.metresPerMile
        return BarChart().svg(totals.map { total in
            BarChart.Bar(label: label(total.start), value: total.distance,
                         valueText: total.distance > 0 ? NumberText.fixed(total.distance / unit, decimals: total.distance / unit < 100 ? 1 : 0) : "")
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
