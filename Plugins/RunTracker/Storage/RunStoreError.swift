/// Problems reading or writing runs; each message names the run and says what to do.
package enum RunStoreError: Error, CustomStringConvertible, Equatable {
    /// A row holds a value this version does not understand.
    case corruptRow(runID: String, detail: String)
    /// The saved live state of an active run could not be read back.
    case unreadableLiveState(runID: String, detail: String)
    /// A database operation failed.
    case database(operation: String, detail: String)

    package var description: String {
        switch self {
        case .corruptRow(let runID, let detail):
            return
                "run \(runID) in the database is not readable: \(detail); it was written by a newer or damaged Meridian"
        case .unreadableLiveState(let runID, let detail):
            return
                "the live state of run \(runID) could not be restored: \(detail); the run is kept with the points stored so far"
        case .database(let operation, let detail):
            return "\(operation) failed: \(detail); check the database file and free disk space"
        }
    }
}
