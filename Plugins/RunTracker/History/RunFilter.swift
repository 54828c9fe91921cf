import Foundation
import GRDB
import MeridianCore

/// Which saved runs a list or a summary covers: a start-time range and an activity. `RunHistory.list` and
/// `RunStatsReport` both select with it, so totals always add up to the runs listed for the same filter.
package struct RunFilter: Sendable, Equatable {
    /// Runs started at or after this moment.
    package var from: Date?
    /// Runs started before this moment.
    package var to: Date?
    /// Runs of this activity only.
    package var activity: Activity?

    package init(from: Date? = nil, to: Date? = nil, activity: Activity? = nil) {
        self.from = from
        self.to = to
        self.activity = activity
    }

    /// SQL conditions on table `runs` (without a leading AND) and their arguments; empty without any filter.
    var conditions: [(sql: String, argument: DatabaseValue)] {
        var conditions: [(String, DatabaseValue)] = []
        if let from { conditions.append(("started_at >= ?", from.timeIntervalSince1970.databaseValue)) }
        if let to { conditions.append(("started_at < ?", to.timeIntervalSince1970.databaseValue)) }
        if let activity { conditions.append(("activity = ?", activity.rawValue.databaseValue)) }
        return conditions
    }

    /// Parses an `activity` parameter; anything but an activity name is an `invalid` error naming `field`.
    package static func parseActivity(_ text: String, field: String) throws(RunHistoryError) -> Activity {
        guard let activity = Activity(rawValue: text) else {
            throw .invalid(
                field: field,
                message:
                    "'\(text)' is not an activity; use one of \(Activity.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return activity
    }
}
