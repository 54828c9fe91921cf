import Foundation
import GRDB
import Hummingbird
import MeridianCore
import MeridianWeb

/// `/runs`: the saved runs newest first, a page of 25 at a time (the history's cursor), searched by name and
/// filtered by activity and by day (days of the configured time zone). `?deleted=ID` offers to undo a deletion.
struct RunListPage {
    let history: RunHistory
    let site: WebSite

    static let pageSize = 25

    func response(_ request: Request) async throws -> Response {
        let figures = RunFigures(units: site.units)
        let parameters = request.uri.queryParameters
        func text(_ name: String) -> String {
            parameters[name[...]].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        }
        var model = Model(zone: site.format.zoneName(at: Date()), query: text("q"), from: text("from"), to: text("to"))
        var query = RunListQuery(limit: Self.pageSize, name: model.query.isEmpty ? nil : model.query)
        let activity = Activity(rawValue: text("activity"))
        query.activity = activity
        model.activities = RunFigures.options(selected: activity, all: "All activities")
        do {
            if !model.from.isEmpty { query.from = try day(model.from, field: "From") }
            if !model.to.isEmpty { query.to = try day(model.to, field: "To").nextDayStart(in: site.timeZone) }
            if !text("cursor").isEmpty { query.cursor = try RunCursor(token: text("cursor")) }
        } catch {
            model.error = "\(error)"
        }
        model.filtered = query.name != nil || activity != nil || query.from != nil || query.to != nil
        if model.error == nil {
            let page = try await RunHistoryRoutes.mapped { try await history.list(query) }
            model.rows = page.runs.map { item in
                let run = item.run
                return Row(
                    href: RunLinks.run(run.id), date: site.format.day(run.startedAt),
                    time: site.format.time(run.startedAt),
                    name: run.name, activity: RunFigures.label(run.activity), distance: figures.distance(run.distance),
                    duration: figures.duration(run.timerTime), pace: figures.paceOrSpeed(run).value)
            }
            model.nextHref = page.nextCursor.map { link(cursor: $0, model: model, activity: activity) }
            model.firstHref = query.cursor == nil ? nil : link(cursor: nil, model: model, activity: activity)
        }
        model.hasRows = !model.rows.isEmpty
        if let deletedID = parameters["deleted"].map(String.init),
            let run = try await history.store.database.read({ db in try RunSummary.fetch(db, id: deletedID) })
        {
            model.deleted = Deleted(name: run.name, restoreAction: "\(RunLinks.run(run.id))/restore")
        }
        return try site.page(title: "Runs", body: RunTemplates.set.render("list", model), path: "/runs")
    }

    /// Midnight starting the day `text` (`2024-05-01`) in the configured time zone.
    private func day(_ text: String, field: String) throws(PageInputError) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = site.timeZone
        guard parts.count == 3,
            let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            calendar.component(.day, from: date) == parts[2]
        else {
            throw PageInputError(description: "\(field): '\(text)' is not a day; give one such as 2024-05-01.")
        }
        return date
    }

    private func link(cursor: String?, model: Model, activity: Activity?) -> String {
        let items = [
            ("q", model.query), ("activity", activity?.rawValue ?? ""), ("from", model.from), ("to", model.to),
            ("cursor", cursor ?? "")
        ].filter { !$0.1.isEmpty }
        return items.isEmpty
            ? "/runs" : "/runs?" + items.map { "\($0.0)=\(PercentEncoding.encoded($0.1))" }.joined(separator: "&")
    }

    struct Model {
        var zone: String
        var query: String
        var from: String
        var to: String
        var activities: [RunFigures.Option] = []
        var rows: [Row] = []
        var hasRows = false
        var filtered = false
        var error: String?
        var nextHref: String?
        var firstHref: String?
        var deleted: Deleted?
    }

    struct Row {
        var href, date, time, name, activity, distance, duration, pace: String
    }

    struct Deleted {
        var name, restoreAction: String
    }
}

/// A form or query value a page cannot use; shown on the page.
struct PageInputError: Error, CustomStringConvertible {
    var description: String
}

extension Date {
    /// Midnight at the start of the day after the one this moment falls in, in `timeZone`.
    func nextDayStart(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: self)
        return calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
    }
}
