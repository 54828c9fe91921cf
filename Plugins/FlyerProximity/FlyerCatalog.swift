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
///
/// With SpatiaLite the cache is a packed index stored in the database (`PersistedFlyerIndex`), read in
/// bulk at start, brought up to date from the change log and compared with the flyer table in the
/// background; it is built again (and stored) only when it is missing, damaged, too far behind or
/// found to differ, and while it is built SpatiaLite answers searches itself (`FlyerCatalogStoredIndex.swift`).
/// Writes: `FlyerCatalogWrites.swift`.
package final class FlyerCatalog: Sendable {
    package let store: any FlyerStore
    /// PostGIS: the cache of every flyer. SpatiaLite: the flyers written since the packed index was built.
    package let index: FlyerIndex
    /// SpatiaLite: the store.
    let repository: SpatiaLiteFlyerStore?
    /// SpatiaLite: the packed index with `index` on top.
    let packed: PackedCache?
    /// Searches by the database itself, for a cold cache.
    let databaseSearch: (any FlyerSearching)?
    /// Searches by the cache (the packed index with `index` on top, or `index` alone).
    let cacheSearch: any FlyerSearching
    /// SpatiaLite: changes since the stored index (or its `changed` row) past which the ids of the flyers changed
    /// since the index are stored again (a short write), so that the next start need not find the index's change
    /// in the change log (the latest 10,000 entries).
    static let restoreAfterChanges: Int64 = 5_000
    /// SpatiaLite: flyers on top of the packed index (or taken out of it) past which it is built again and stored,
    /// off the cooperative threads while writes and searches go on, when the index holds fewer than ten times as
    /// many (see `compactionThreshold`). Also about how many flyers a start reads at most.
    let compactAfter: Int
    let cellSize: Double
    let logger: Logger
    let state = Mutex(State())
    let serial = AsyncSerial()
    /// SpatiaLite: where writes wait for SQLite's write lock and run (see `storeWrite`).
    let writes = DispatchQueue(label: "meridian.flyers.writes")

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
    package init(store: any FlyerStore, cellSize: Double = 0.05, compactAfter: Int = 20_000, logger: Logger = Logger(label: "meridian.flyers")) {
        self.store = store
        self.cellSize = cellSize
        self.compactAfter = compactAfter
        self.logger = logger
        repository = store as? SpatiaLiteFlyerStore
        if let repository {
            let cache = PackedCache(cellSize: cellSize)
            let database = SpatiaLiteSearch(repository: repository)
            packed = cache
            index = cache.changed
            databaseSearch = database
            cacheSearch = PackedSearch(cache: cache, database: database)
        } else {
            packed = nil
            index = FlyerIndex(cellSize: cellSize)
            databaseSearch = store.makeDatabaseSearch()
            cacheSearch = index
        }
    }

    /// A catalogue over the SpatiaLite `repository` with its cache loaded: the stored index when it can
    /// be used, else one built now (and stored).
    package convenience init(loading repository: SpatiaLiteFlyerStore, cellSize: Double = 0.05) throws(FlyerStoreError) {
        self.init(store: repository, cellSize: cellSize)
        if try !openStoredIndex() { try build() }
    }

    /// A SpatiaLite catalogue over `store` (the flyer table is created on first use) with the stored index
    /// when it can be used; else the cache is cold (SpatiaLite answers) until `prepare()` has built it.
    package convenience init(store: Store, cellSize: Double = 0.05, logger: Logger = Logger(label: "meridian.flyers")) throws(FlyerStoreError) {
        let repository: SpatiaLiteFlyerStore
        do {
            repository = try SpatiaLiteFlyerStore(store: store)
        } catch {
            throw .database("\(error)")
        }
        self.init(store: repository, cellSize: cellSize, logger: logger)
        _ = try openStoredIndex()
    }

    /// The number of cached flyers.
    package var count: Int { packed?.count ?? index.count }

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
        guard let repository else { return index.list(limit: limit, after: nil).flyers }
        var flyers: [Flyer] = []
        try? repository.scan("1 ORDER BY id LIMIT ?", [limit]) { flyers.append($0); return true }
        return flyers
    }

    /// What the proximity watcher reads.
    var proximitySource: any ProximitySource { packed ?? index }

    /// Returns once the cache has held the whole catalogue (or never can: a damaged store keeps it cold), so that
    /// enter and exit are judged against every flyer and not against a cache still being built.
    func untilLoaded() async {
        while !state.withLock({ $0.loaded }), storeDamage == nil, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func apply(_ found: [Flyer], changed ids: Set<String>) {
        let present = Set(found.map(\.id))
        if let packed {
            packed.upsert(found)
            for id in ids where !present.contains(id) { packed.remove(id: id) }
        } else {
            index.upsert(found)
            for id in ids where !present.contains(id) { index.remove(id: id) }
        }
    }

    // MARK: Cache

    /// Reads every flyer into a new cache and swaps it in (at start, and after a reconnect); with
    /// SpatiaLite builds and stores the packed index, the database answering meanwhile.
    package func load() async throws(FlyerStoreError) {
        try await serialised { () async throws(FlyerStoreError) in
            if packed != nil {
                markCold()
                try await buildInBackground()
                return
            }
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
    package func refresh() async throws(FlyerStoreError) {
        // A cold cache over a damaged store is not built again: SpatiaLite answers, always up to date.
        if packed != nil, storeDamage != nil, !state.withLock({ $0.warm }) { return }
        let needsLoad = try await serialised { () async throws(FlyerStoreError) -> Bool in
            let since = state.withLock { $0.lastChange }
            let changes = try await store.changes(after: since)
            guard changes.latest != since else { return false }
            guard let ids = changes.ids else { return true }
            apply(try await store.flyers(ids: Array(ids)), changed: ids)
            state.withLock { $0.lastChange = changes.latest }
            return false
        }
        if needsLoad { try await load() }
        guard let packed, storeDamage == nil else { return }
        let (latest, stored, building) = state.withLock { ($0.lastChange, $0.storedChange, $0.building) }
        if !building, packed.overlayCount > Self.compactionThreshold(compactAfter: compactAfter, indexed: packed.base.index.count) {
            compact()
        } else if latest - stored > Self.restoreAfterChanges {
            await storeChanged()
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
            if current.warm { return (cacheSearch, false) }
            if let databaseSearch { return (databaseSearch, false) }
            throw .unavailable("the flyers are still being loaded; try again in a moment")
        }
        if current.loaded { return (cacheSearch, true) }
        throw .unavailable(current.problem ?? "the database cannot be reached")
    }

    /// The database's state for `/v1/providers` and `/health`.
    package var report: DatabaseState {
        let current = state.withLock { $0 }
        if let damage = storeDamage {
            return DatabaseState(backend: store.backend, state: "damaged", cache: current.warm ? "warm" : "cold", items: count,
                                 lastChange: current.lastChange, problem: damage.description)
        }
        return DatabaseState(backend: store.backend, state: current.available ? "connected" : "unavailable",
                             cache: current.warm ? "warm" : "cold", items: count, lastChange: current.lastChange,
                             problem: current.problem)
    }

    // MARK: Reading by id

    /// The flyer with this id, from the cache when warm.
    package func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await reader().searcher.flyer(id: id)
    }
}
