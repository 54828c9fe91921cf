import Foundation
import Logging
import MeridianCore
import MeridianStore
import Synchronization

/// The flyers of one store (SpatiaLite or PostGIS) and the in-memory cache of them: the one type behind the
/// plugin, the HTTP routes and the CLI.
///
/// Writes go to the store (one transaction), then the cache follows the store's change log, so
/// writes from this instance, other instances and the CLI all reach it the same way (`refresh()`,
/// called after each own write and by `FlyerChangeFeed` when another writer changed something).
/// Reads use the cache when it is warm, else the database when it can answer; while the database is
/// unreachable, a warm cache answers flagged as stale. How the cache is kept is the store's choice
/// (`FlyerStore.makeCache`: `StoredIndexCache` for SpatiaLite, `PostGISIndexCache` for PostGIS). Writes:
/// `FlyerCatalogWrites.swift`.
package final class FlyerCatalog: Sendable {
    package let store: any FlyerStore
    /// The cache of the store's flyers, as the store keeps it.
    let cache: any FlyerCache
    /// Searches by the database itself, for a cold cache.
    let databaseSearch: any FlyerSearching
    /// SpatiaLite: flyers on top of the packed index (or taken out of it) past which it is built again and stored,
    /// off the cooperative threads while writes and searches go on, when the index holds fewer than ten times as
    /// many (see `StoredIndexCache.compactionThreshold`). Also about how many flyers a start reads at most.
    let compactAfter: Int
    let logger: Logger
    let state = Mutex(State())
    let serial = AsyncSerial()

    struct State {
        /// The latest change the cache holds.
        var lastChange: Int64 = 0
        var warm = false
        /// The cache has been loaded at least once (so it can answer, stale, while the database is away).
        var loaded = false
        var available = true
        /// Why the database is unavailable.
        var problem: String?
        /// SpatiaLite: whether a build is under way, and whether the index was read back from the
        /// database (and is still to be compared with the flyer table).
        var building = false
        var readBack = false
        /// SpatiaLite: the latest change the stored index with its `changed` row covers.
        var storedChange: Int64 = 0
    }

    /// A catalogue over `store` with a cold cache (see `load()`); `compactAfter` as the property says.
    package init(
        store: any FlyerStore, cellSize: Double = 0.05, compactAfter: Int = 20_000,
        logger: Logger = Logger(label: "meridian.flyers")
    ) {
        self.store = store
        self.compactAfter = compactAfter
        self.logger = logger
        cache = store.makeCache(cellSize: cellSize)
        databaseSearch = store.makeDatabaseSearch()
    }

    /// A catalogue over the SpatiaLite `repository` with its cache loaded: the stored index when it can
    /// be used, else one built now (and stored).
    package convenience init(loading repository: SpatiaLiteFlyerStore, cellSize: Double = 0.05) throws(FlyerStoreError)
    {
        self.init(store: repository, cellSize: cellSize)
        _ = try cache.start(for: self, building: true)
    }

    /// A SpatiaLite catalogue over `store` (the flyer table is created on first use) with the stored index
    /// when it can be used; else the cache is cold (SpatiaLite answers) until `prepare()` has built it.
    package convenience init(store: Store, cellSize: Double = 0.05, logger: Logger = Logger(label: "meridian.flyers"))
        throws(FlyerStoreError)
    {
        let repository: SpatiaLiteFlyerStore
        do {
            repository = try SpatiaLiteFlyerStore(store: store)
        } catch {
            throw .database("\(error)")
        }
        self.init(store: repository, cellSize: cellSize, logger: logger)
        _ = try openStoredIndex()
    }

    /// Takes the store's stored copy of the cache when there is a sound one (SpatiaLite's stored search index);
    /// true when the cache is warm then.
    @discardableResult
    func openStoredIndex() throws(FlyerStoreError) -> Bool {
        try cache.start(for: self, building: false)
    }

    /// The number of cached flyers.
    package var count: Int { cache.count }

    /// Whatever answers searches now (see `reader()`).
    package func searcher() throws(FlyerStoreError) -> any FlyerSearching {
        try reader().searcher
    }

    /// The query's page from whatever answers reads now (see `reader()`).
    package func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches {
        try await reader().searcher.nearby(query)
    }

    /// The first `limit` flyers by id (none when the database cannot say).
    package func first(_ limit: Int) -> [Flyer] {
        cache.first(limit)
    }

    /// What the proximity watcher reads.
    var proximitySource: any ProximitySource { cache.proximitySource }

    /// Returns once the cache has held the whole catalogue (or never can: a damaged store keeps it cold), so that
    /// enter and exit are judged against every flyer and not against a cache still being built.
    func untilLoaded() async {
        while !state.withLock({ $0.loaded }), cache.damage == nil, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Once the service runs: the cache's background work (SpatiaLite: builds the stored index when it could not be
    /// used, else compares it with the flyer table and builds it again when they differ).
    package func prepare() async throws(FlyerStoreError) {
        try await cache.prepare(for: self)
    }

    /// Makes the cache's word index now, for text searches that must not go to the database while it is made
    /// (benchmarks and tests of the cache's own text search); the service makes it aside at the first text search.
    package func makeTextIndex() {
        cache.makeWords()
    }

    // MARK: Cache

    /// Fills the cache from the store again (at start, and after a reconnect): PostGIS reads every flyer, the
    /// SpatiaLite index is built and stored again, the database answering meanwhile.
    package func load() async throws(FlyerStoreError) {
        try await serialised { () async throws(FlyerStoreError) in try await cache.load(for: self) }
    }

    /// Applies what the change log holds beyond the cache's latest change: the changed flyers are
    /// read again (or all of them after a bulk write or a gap in the log).
    package func refresh() async throws(FlyerStoreError) {
        // A cold cache over a damaged store is not built again: SpatiaLite answers, always up to date.
        if cache.damage != nil, !state.withLock({ $0.warm }) { return }
        let (needsLoad, applied) = try await serialised { () async throws(FlyerStoreError) -> (Bool, [Flyer]) in
            let since = state.withLock { $0.lastChange }
            let changes = try await store.changes(after: since)
            guard changes.latest != since else { return (false, []) }
            guard let ids = changes.ids else { return (true, []) }
            let found = try await store.flyers(ids: Array(ids))
            cache.apply(found, changed: ids)
            state.withLock { $0.lastChange = changes.latest }
            return (false, found)
        }
        if needsLoad { try await load() }
        await repairWords(of: applied)
        await cache.followed(by: self)
    }

    /// Gives flyers another program wrote the words the database's text search reads (the cache folds their text
    /// itself); a failure is logged and left for the flyer's next change.
    private func repairWords(of flyers: [Flyer]) async {
        guard !flyers.isEmpty, cache.damage == nil, state.withLock({ $0.available }) else { return }
        do {
            try await store.repairWords(of: flyers)
        } catch {
            logger.warning("flyers: cannot set the text-search words of flyers written by another program: \(error)")
        }
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
    func serialised<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
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
            if current.warm { return (cache.searcher, false) }
            return (databaseSearch, false)
        }
        if current.loaded { return (cache.searcher, true) }
        throw .unavailable(current.problem ?? "the database cannot be reached")
    }

    /// The database's state for `/v1/providers` and `/health`.
    package var report: DatabaseState {
        let current = state.withLock { $0 }
        if let damage = cache.damage {
            return DatabaseState(
                backend: store.backend, state: "damaged", cache: current.warm ? "warm" : "cold", items: count,
                lastChange: current.lastChange, problem: damage.description)
        }
        return DatabaseState(
            backend: store.backend, state: current.available ? "connected" : "unavailable",
            cache: current.warm ? "warm" : "cold", items: count, lastChange: current.lastChange,
            problem: current.problem)
    }

    // MARK: Reading by id

    /// The flyer with this id, from the cache when warm.
    package func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await reader().searcher.flyer(id: id)
    }
}
