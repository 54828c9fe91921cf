/// A consumer that keeps its data in a database of its own choosing (the flyers' SpatiaLite or
/// PostGIS), whose state `GET /v1/providers` and `/health` show.
public protocol DatabaseBacked: Sendable {
    var databaseState: DatabaseState { get }
}

/// The state of a consumer's database.
public struct DatabaseState: Sendable, Encodable, Equatable {
    /// `spatialite` or `postgis`.
    public var backend: String
    /// `connected` or `unavailable`.
    public var state: String
    /// `warm` (an in-memory cache answers) or `cold` (the database answers, or nothing can).
    public var cache: String
    /// Items in the cache.
    public var items: Int
    /// The latest change the cache holds.
    public var lastChange: Int64
    /// Why the database is unavailable.
    public var problem: String?

    public init(backend: String, state: String, cache: String, items: Int, lastChange: Int64, problem: String?) {
        self.backend = backend
        self.state = state
        self.cache = cache
        self.items = items
        self.lastChange = lastChange
        self.problem = problem
    }
}
