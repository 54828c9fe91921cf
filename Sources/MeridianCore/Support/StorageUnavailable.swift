/// An error meaning that the storage cannot take the request now, not that the request or the server is wrong.
/// The storage says what happened; the layer that answers (the HTTP API) decides how.
public protocol StorageUnavailable: Error {
    /// Nil when this error is not of that kind; else what the storage met.
    var refusal: StorageRefusal? { get }
}

/// Why the storage cannot take a request now.
public enum StorageRefusal: String, Sendable, Equatable, CaseIterable {
    /// Another writer holds the database past the busy timeout.
    case busy
    /// Another connection holds a lock on what the request needs.
    case locked
    /// Damage was found: the store takes no more writes.
    case damaged
    /// The database cannot be written (a read-only file, `PRAGMA query_only`).
    case readOnly = "read-only"
    /// The disk holding the database is full.
    case full
}
