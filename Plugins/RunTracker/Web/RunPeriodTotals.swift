import Foundation
import MeridianCore
import MeridianStore

/// The numbers behind the records page's charts: the totals of the last few calendar periods, from the run
/// statistics (`RunStatsReport`, the same totals as `GET /v1/runs/stats`), in the configured time zone.
enum RunPeriodTotals {
    /// The last `count` periods up to the one holding `now`, oldest first (periods without runs included).
    static func totals(in store: Store, by period: StatsPeriod, count: Int, timeZone: TimeZone,
                       now: Date = Date()) async throws -> [PeriodTotals] {
        let calendar = StatsPeriod.calendar(in: timeZone)
        guard count > 0, let current = period.interval(containing: now, in: calendar) else { return [] }
        var first = current
        for _ in 1..<count {
            guard let earlier = period.interval(containing: first.start.addingTimeInterval(-1), in: calendar) else { break }
            first = earlier
        }
        let filter = RunFilter(from: first.start, to: current.end)
        return try await store.database.read { db in
            try RunStatsReport.make(by: period, filter: filter, timeZone: timeZone, now: now, in: db).periods
        }
    }
}
