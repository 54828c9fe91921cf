import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// Distance per calendar week (Monday to Sunday) or month of the saved runs, in the configured time zone: the
/// numbers behind the records page's charts. The page reads them only through `totals`, so that it can be
/// switched to the history's own statistics when those exist.
enum RunPeriodTotals {
    enum Period {
        case week, month
    }

    struct Total: Equatable {
        /// The period's first moment.
        var start: Date
        var distance: Double
        var runs: Int
    }

    /// The last `count` periods up to the one holding `now`, oldest first (periods without runs are 0).
    static func totals(in store: Store, by period: Period, count: Int, timeZone: TimeZone, now: Date = Date()) async throws -> [Total] {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let component: Calendar.Component = period == .week ? .weekOfYear : .month
        guard count > 0, let current = calendar.dateInterval(of: component, for: now)?.start else { return [] }
        let starts = (0..<count).reversed().compactMap { calendar.date(byAdding: component, value: -$0, to: current) }
        guard let first = starts.first else { return [] }
        let runs = try await store.database.read { db in
            try RunSummary.fetchAll(db, where: "deleted_at IS NULL AND state = 'stopped' AND started_at >= ?",
                                    arguments: [first.timeIntervalSince1970])
        }
        var totals = starts.map { Total(start: $0, distance: 0, runs: 0) }
        for run in runs {
            guard let slot = starts.lastIndex(where: { $0 <= run.startedAt }) else { continue }
            totals[slot].distance += run.distance
            totals[slot].runs += 1
        }
        return totals
    }
}
