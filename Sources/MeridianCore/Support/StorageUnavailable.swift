/// An error meaning that the storage cannot take the request now (busy with another writer, or refusing
/// writes), not that the request or the server is wrong: the API answers 503 with `Retry-After`.
public protocol StorageUnavailable: Error {
    /// Nil when this error is not of that kind; else the API's error code and the seconds to retry after.
    var unavailability: (code: String, retryAfterSeconds: Int)? { get }
}
