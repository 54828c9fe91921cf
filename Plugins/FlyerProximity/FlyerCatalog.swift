import Foundation
import Logging
import MeridianCore
import MeridianStore
import Synchronization

/// The flyers of one store (SpatiaLite or PostGIS) and the in-memory index that caches them: the
/// one type behind the plugin, the HTTP routes and the CLI.
///
/// Writes go to the store (one transaction), then the cache follows the store's change log, so
/// writes from this instance, other instances and the CLI all reach it the same way (`refresh()`,
/// called after each own write and by `FlyerChangeFeed` when another writer changed something).
/// Reads use the cache when it is warm, else the database (PostGIS) when it can answer; while the
/// database is unreachable, a warm cache answers flagged as stale.
public final class FlyerCatalog: Sendable {
    public let store: any FlyerStore
    /// The cache: every stored flyer, for nearest-first search.
    public let index: FlyerIndex
    /// Searches by the database itself, for a cold cache (PostGIS only).
    let databaseSearch: (any FlyerSearching)?
    private let cellSize: Double
    private let logger: Logger
    private let state = Mutex(State())
    private let serial = AsyncSerial()

    private struct State {
        /// The latest change the cache holds.
        var lastChange: Int64 = 0
        var warm = false
        /// The cache has been loaded at least once (so it can answer, stale, while the database is away).
        var loaded = false
        var available = true
        /// Why the database is unavailable.
        var problem: String?
    }

    /// A catalogue over `store` with a cold cache (see `load()`).
    public init(store: any FlyerStore, cellSize: Double = 0.05, logger: Logger = Logger(label: "meridian.flyers")) {
        self.store = store
        self.cellSize = cellSize
        self.logger = logger
        index = FlyerIndex(cellSize: cellSize)
        databaseSearch = (store as? PostGISFlyerStore).map { PostGISSearch(store: $0) }
    }

    /// A catalogue over the SpatiaLite `repository` with its cache loaded, without waiting on anything else.
    public convenience init(loading repository: FlyerRepository, cellSize: Double = 0.05) throws(FlyerStoreError) {
        self.init(store: repository, cellSize: cellSize)
        let latest = try repository.lastChange()
        var loader = FlyerIndex.Loader(into: index)
        try repository.forEach { loader.add($0) }
        loader.finish()
        state.withLock { $0.lastChange = latest; $0.warm = true; $0.loaded = true }
    }

    /// A SpatiaLite catalogue over `store` (the flyer table is created on first use), loaded.
    public convenience init(store: Store, cellSize: Double = 0.05) throws(FlyerStoreError) {
        do {
            try self.init(loading: try FlyerRepository(store: store), cellSize: cellSize)
        } catch let error as FlyerStoreError {
            throw error
        } catch {
            throw .database("\(error)")
        }
    }

    // MARK: Cache

    /// Reads every flyer into a new cache and swaps it in (at start, and after a reconnect).
    public func load() async throws(FlyerStoreError) {
        try await serialised { () async throws(FlyerStoreError) in
            let latest = try await store.lastChange()
            let fresh = FlyerIndex(cellSize: cellSize)
            var loader = FlyerIndex.Loader(into: fresh)
            try await store.forEach { loader.add($0) }
            loader.finish()
            index.replaceContents(with: fresh)
            state.withLock { $0.lastChange = latest; $0.warm = true; $0.loaded = true }
            logger.debug("flyers: cache loaded", metadata: ["flyers": "\(index.count)", "backend": "\(store.backend)"])
        }
    }

    /// Applies what the change log holds beyond the cache's latest change: the changed flyers are
    /// read again (or all of them after a bulk write or a gap in the log).
    public func refresh() async throws(FlyerStoreError) {
        let needsLoad = try await serialised { () async throws(FlyerStoreError) -> Bool in
            let since = state.withLock { $0.lastChange }
            let changes = try await store.changes(after: since)
            guard changes.latest != since else { return false }
            guard let ids = changes.ids else { return true }
            let found = try await store.flyers(ids: Array(ids))
            let present = Set(found.map(\.id))
            index.upsert(found)
            for id in ids where !present.contains(id) { index.remove(id: id) }
            state.withLock { $0.lastChange = changes.latest }
            return false
        }
        if needsLoad { try await load() }
    }

    /// Marks the cache as no longer following the store (the connection was lost: changes may be missed).
    func markCold() {
        state.withLock { $0.warm = false }
    }

    /// Records whether the database answers, and why not.
    func setAvailable(_ available: Bool, problem: String? = nil) {
        state.withLock {
            $0.available = available
            $0.problem = available ? nil : problem
        }
    }

    /// Runs `body` after every earlier cache update, with its errors as `FlyerStoreError`.
    private func serialised<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        do {
            return try await serial.run { try await body() }
        } catch let error as FlyerStoreError {
            throw error
        } catch {
            throw .database("\(error)")
        }
    }

    // MARK: Reading

    /// What answers reads now and whether its answers may be stale; throws `unavailable` when nothing can.
    ///
    /// A warm cache answers while the database is reachable; a cold one (loading again after a
    /// reconnect) leaves the answers to the database. While the database cannot be reached, a cache
    /// that was ever loaded answers, flagged stale.
    func reader() throws(FlyerStoreError) -> (searcher: any FlyerSearching, stale: Bool) {
        let current = state.withLock { $0 }
        if current.available {
            if current.warm { return (index, false) }
            if let databaseSearch { return (databaseSearch, false) }
            throw .unavailable("the flyers are still being loaded; try again in a moment")
        }
        if current.loaded { return (index, true) }
        throw .unavailable(current.problem ?? "the database cannot be reached")
    }

    /// The database's state for `/v1/providers` and `/health`.
    public var report: DatabaseState {
        let current = state.withLock { $0 }
        return DatabaseState(backend: store.backend, state: current.available ? "connected" : "unavailable",
                             cache: current.warm ? "warm" : "cold", items: index.count, lastChange: current.lastChange,
                             problem: current.problem)
    }

    // MARK: Writing

    /// Adds new flyers (an id that exists already is an error) or, with `.upsert`, replaces them.
    /// Ids repeated within `flyers` are rejected, and then nothing is written.
    public func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try checkWritable()
        try await noting { () async throws(FlyerStoreError) in try await store.write(flyers, mode: mode) }
        await follow()
    }

    /// Deletes flyer `id`; false when there was none.
    public func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try checkWritable()
        let deleted = try await noting { () async throws(FlyerStoreError) in try await store.delete(id: id) }
        await follow()
        return deleted
    }

    /// The flyer with this id, from the cache when warm.
    public func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await reader().searcher.flyer(id: id)
    }

    private func checkWritable() throws(FlyerStoreError) {
        let current = state.withLock { $0 }
        if !current.available { throw .unavailable(current.problem ?? "the database cannot be reached") }
    }

    /// Runs a store operation, noting when it finds the database unreachable.
    private func noting<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        do {
            return try await body()
        } catch {
            if case .unavailable(let problem) = error { setAvailable(false, problem: problem) }
            throw error
        }
    }

    /// Brings the cache up to date after an own write (a failure leaves it to the change feed).
    private func follow() async {
        do {
            try await refresh()
        } catch {
            logger.warning("flyers: the cache could not follow a write yet: \(error)")
        }
    }
}
