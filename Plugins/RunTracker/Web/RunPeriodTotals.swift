import Foundation
import MeridianCore
import MeridianStore

/// The numbers behind the records page's charts: the totals of a few calendar periods, from the run statistics
/// (`RunStatsReport`, the same totals as `GET /v1/runs/stats`), in the configured time zone.
enum RunPeriodTotals {
    /// The `count` periods up to the one holding `end`, oldest first (periods without runs included). Without `end`
    /// they end with the current period, or with the latest saved run's when that is older than all of them, so a
    /// history imported long after its last run opens at its data.
    static func totals(
        in store: Store, by period: StatsPeriod, count: Int, timeZone: TimeZone, end: Date? = nil,
        now: Date = Date()
    ) async throws -> [PeriodTotals] {
        let calendar = StatsPeriod.calendar(in: timeZone)
        return try await store.database.read { db in
            guard count > 0, var window = Self.window(period, count: count, containing: end ?? now, calendar: calendar)
            else { return [] }
            if end == nil,
                let latest = try Double.fetchOne(
                    db, sql: "SELECT MAX(r.started_at) FROM runs r WHERE \(RecordBook.countingRuns)"),
                latest < window.first.start.timeIntervalSince1970,
                let older = Self.window(
                    period, count: count, containing: Date(timeIntervalSince1970: latest), calendar: calendar)
            {
                window = older
            }
            let filter = RunFilter(from: window.first.start, to: window.last.end)
            return try RunStatsReport.make(by: period, filter: filter, timeZone: timeZone, now: now, in: db).periods
        }
    }

    /// Where the chart of `periods` moves: the day ending the window just before them, and the day ending the window
    /// of as many periods just after them (`nil` when they already end with the current period).
    static func neighbours(
        of periods: [PeriodTotals], by period: StatsPeriod, timeZone: TimeZone,
        now: Date = Date()
    ) -> (earlier: Date?, later: Date?) {
        guard let first = periods.first, let last = periods.last else { return (nil, nil) }
        let calendar = StatsPeriod.calendar(in: timeZone)
        var later = DateInterval(start: last.start, end: last.end)
        for _ in periods.indices {
            guard let next = period.interval(containing: later.end, in: calendar) else { break }
            later = next
        }
        return (first.start.addingTimeInterval(-1), last.end > now ? nil : min(later.start, now))
    }

    /// The first and last of the `count` periods ending with the one holding `date`.
    private static func window(
        _ period: StatsPeriod, count: Int, containing date: Date,
        calendar: Calendar
    ) -> (first: DateInterval, last: DateInterval)? {
        guard let last = period.interval(containing: date, in: calendar) else { return nil }
        var first = last
        for _ in 1..<count {
            guard let earlier = period.interval(containing: first.start.addingTimeInterval(-1), in: calendar) else {
                break
            }
            first = earlier
        }
        return (first, last)
    }
}
