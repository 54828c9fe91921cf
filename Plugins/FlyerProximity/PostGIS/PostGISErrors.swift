import Foundation
import Logging
import PostgresNIO

/// Turns PostgreSQL's errors into `FlyerStoreError`s that say what to do.
enum PostGISErrors {
    /// `error` from an operation on `location`.
    static func describe(_ error: any Error, location: PostgresLocation) -> FlyerStoreError {
        if let error = error as? FlyerStoreError { return error }
        if let error = error as? PostgresTransactionError,
            let cause = error.beginError ?? error.closureError ?? error.commitError
        {
            return describe(cause, location: location)
        }
        if error is DeadlineExceeded {
            return .unavailable(
                "PostgreSQL at \(location.host):\(location.port) did not answer in time; is it running and reachable?")
        }
        if let error = error as? PSQLError {
            if error.code == .server, let info = error.serverInfo {
                let state = info[.sqlState] ?? ""
                let message = info[.message] ?? "an error"
                switch state {
                case "28P01", "28000":
                    return .unavailable(
                        "PostgreSQL refused the sign-in of user '\(location.user)' (\(message)); check the user and password in the database URL"
                    )
                case "3D000":
                    return .unavailable(
                        "the database '\(location.database)' does not exist on \(location.host):\(location.port); create it (createdb \(location.database)) or fix the database URL"
                    )
                case "57P01", "57P02", "57P03", "53300":
                    return .unavailable(
                        "PostgreSQL at \(location.host):\(location.port) is not accepting work (\(message)); it is shutting down, starting or full"
                    )
                case "23505":
                    return .duplicateID(duplicateKey(info[.detail]) ?? "?")
                case "55P03":
                    return .busy
                default:
                    return .database("\(message)\(info[.detail].map { " (\($0))" } ?? "") [\(state)]")
                }
            }
            if error.code == .sslUnsupported {
                return .unavailable(
                    "PostgreSQL at \(location.host):\(location.port) does not offer TLS, but the URL has sslmode=require"
                )
            }
            let cause = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return .unavailable(
                "cannot reach PostgreSQL at \(location.host):\(location.port) (\(cause)); is it running and reachable?")
        }
        if error is CancellationError { return .unavailable("the operation was cancelled") }
        return .unavailable(
            "cannot reach PostgreSQL at \(location.host):\(location.port) (\(error)); is it running and reachable?")
    }

    /// The key in `Key (id)=(bakery) already exists.`
    private static func duplicateKey(_ detail: String?) -> String? {
        guard let detail, let open = detail.range(of: ")=("),
            let close = detail.range(of: ") already exists", options: .backwards),
            open.upperBound <= close.lowerBound
        else { return nil }
        return String(detail[open.upperBound..<close.lowerBound])
    }
}

extension PostgresConnection {
    /// Makes each lock wait of the current transaction end after `seconds`: PostgreSQL then drops the statement and
    /// answers 55P03, which `PostGISErrors` makes `busy` (another write holds the table).
    func limitLockWaits(to seconds: Double, logger: Logger) async throws {
        try await query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(Int(seconds * 1000))"), logger: logger)
    }
}
