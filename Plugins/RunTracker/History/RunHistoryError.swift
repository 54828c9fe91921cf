import Foundation

/// Problems with a history request; each message names the run or the input and says what to do.
package enum RunHistoryError: Error, CustomStringConvertible, Equatable {
    /// No run has this id (or it was purged).
    case notFound(runID: String)
    /// The run is being recorded; stop it first.
    case active(runID: String)
    /// The run is not deleted, so there is nothing to restore.
    case notDeleted(runID: String)
    /// The run is deleted; it must be restored before it can be changed.
    case deleted(runID: String)
    /// A field of an edit or a query is not acceptable.
    case invalid(field: String, message: String)

    package var description: String {
        switch self {
        case .notFound(let runID):
            return
                "no run with id '\(runID)'; list runs with `meridian runs list` or GET /v1/runs (deleted runs are purged after 30 days)"
        case .active(let runID):
            return "run '\(runID)' is still being recorded; stop it first"
        case .notDeleted(let runID):
            return "run '\(runID)' is not deleted; only deleted runs can be restored"
        case .deleted(let runID):
            return
                "run '\(runID)' is deleted; restore it first (`meridian runs restore \(runID)` or POST /v1/runs/\(runID)/restore)"
        case .invalid(let field, let message):
            return "\(field): \(message)"
        }
    }
}
