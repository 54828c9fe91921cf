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
/// found to differ, and while it is built SpatiaLite answers searches itself.
package final class FlyerCatalog: Sendable {
    package let store: any FlyerStore
    /// PostGIS: the cache of every flyer. SpatiaLite: the flyers written since the packed index was built.
    package let index: FlyerIndex
    /// SpatiaLite: the store.
    private let repository: SpatiaLiteFlyerStore?
    /// SpatiaLite: the packed index with `index` on top.
    let packed: PackedCache?
    /// Searches by the database itself, for a cold cache.
    let databaseSearch: (any FlyerSearching)?
    /// Searches by the cache (the packed index with `index` on top, or `index` alone).
    private let cacheSearch: any FlyerSearching
    /// SpatiaLite: changes since the stored index (or its `changed` row) past which the ids of the flyers changed
    /// since the index are stored again (a short write), so that the next start need not find the index's change
    /// in the change log (the latest 10,000 entries).
    static let restoreAfterChanges: Int64 = 5_000
    /// SpatiaLite: flyers on top of the packed index (or taken out of it) past which it is built again and stored,
    /// off the cooperative threads while writes and searches go on, when the index holds fewer than ten times as
    /// many (see `compactionThreshold`). Also about how many flyers a start reads at most.
    let compactAfter: Int
    private let cellSize: Double
    private let logger: Logger
    private let state = Mutex(State())
    private let serial = AsyncSerial()
    /// SpatiaLite: where writes wait for SQLite's write lock and run (see `storeWrite`).
    private let writes = DispatchQueue(label: "meridian.flyers.writes")

    private struct State {
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

    // MARK: Stored index (SpatiaLite)

    /// Takes the stored index when it is sound and the change log reaches back to it, and applies the
    /// changes since; true when the cache is warm then. When SQLite cannot read it (the file is damaged there),
    /// the store refuses writes and the cache stays cold: SpatiaLite answers from the file itself.
    @discardableResult
    func openStoredIndex() throws(FlyerStoreError) -> Bool {
        guard let packed, let repository else { return false }
        let found: PersistedFlyerIndex.Found, latest: Int64
        do {
            (found, latest) = try repository.storedIndex(cellSize: cellSize)
        } catch {
            guard storeDamage != nil else { throw error }
            logger.error("flyers: the stored search index cannot be read (the damage is logged above); SpatiaLite answers searches from the file itself")
            return false
        }
        switch found {
        case .none:
            logger.info("flyers: no stored search index yet; building it")
            return false
        case .rejected(let reason):
            logger.warning("flyers: the stored search index is not used: \(reason); building it again")
            return false
        case .found(let stored, let meta, let changed):
            let since = changed?.change ?? meta.change
            guard latest >= since else {
                logger.info("flyers: the stored search index is newer than the flyer table's change log (a restored copy?); building it again")
                return false
            }
            let changes = try repository.changes(after: since)
            guard let logged = changes.ids else {
                logger.info("flyers: too much changed since the stored search index was built; building it again")
                return false
            }
            let ids = logged.union(changed?.ids ?? [])
            packed.replaceBase(with: stored, change: meta.change)
            let found = try repository.flyers(ids: Array(ids))
            apply(found, changed: ids)
            state.withLock {
                $0.lastChange = changes.latest; $0.storedChange = since; $0.readBack = true; $0.warm = true; $0.loaded = true
            }
            logger.info("flyers: stored search index read", metadata: ["flyers": "\(packed.count)", "changes since": "\(ids.count)"])
            return true
        }
    }

    /// Builds the packed index from every stored flyer (on this thread), stores it, and makes it the
    /// cache with the changes since applied.
    private func build() throws(FlyerStoreError) {
        guard let built = try buildAndStore() else { return }
        try use(built)
    }

    /// The packed index of every stored flyer (read in one transaction, which no writer waits for), stored; the
    /// store's write lock is held only while the arrays are written.
    private func buildAndStore() throws(FlyerStoreError) -> (index: PackedFlyerIndex, change: Int64, stored: Bool)? {
        guard let repository else { return nil }
        let built = try repository.buildIndex(cellSize: cellSize)
        do {
            try repository.saveIndex(built.index, change: built.change)
            return (built.index, built.change, true)
        } catch {
            logger.warning("flyers: the search index could not be stored (\(error)); it is built again at the next start")
            return (built.index, built.change, false)
        }
    }

    /// Makes `built` the cache, with the changes since it was built applied.
    private func use(_ built: (index: PackedFlyerIndex, change: Int64, stored: Bool)) throws(FlyerStoreError) {
        guard let packed, let repository else { return }
        packed.replaceBase(with: built.index, change: built.change)
        let changes = try repository.changes(after: built.change)
        if let ids = changes.ids {
            apply(try repository.flyers(ids: Array(ids)), changed: ids)
        }
        state.withLock {
            $0.lastChange = changes.ids == nil ? built.change : changes.latest
            if built.stored { $0.storedChange = built.change }
            $0.readBack = false; $0.warm = true; $0.loaded = true
        }
        logger.info("flyers: search index built and stored", metadata: ["flyers": "\(built.index.count)"])
    }

    /// Builds the packed index off the cooperative threads (SpatiaLite answers while the cache is cold); not in
    /// a damaged store, which could not store it and whose flyers SpatiaLite reads as they are.
    private func buildInBackground() async throws(FlyerStoreError) {
        guard storeDamage == nil else { return }
        let result = await BlockingWork.onOwnThread { Result { () throws(FlyerStoreError) in try self.build() } }
        try result.get()
    }

    /// SpatiaLite (the service calls this once it runs): builds the index when the stored one could not
    /// be used; else compares the stored one with the flyer table, off the cooperative threads, and builds
    /// it again when they differ (a write that bypassed the change log).
    package func prepare() async throws(FlyerStoreError) {
        guard let packed, let repository else { return }
        let (warm, readBack) = state.withLock { ($0.warm, $0.readBack) }
        guard warm else { return try await serialised { () async throws(FlyerStoreError) in try await buildInBackground() } }
        guard readBack else { return }
        // The flyers the cache has taken from the table since the index was built are left out, as are those logged after.
        let (index, known, since) = await serial.run { (packed.base.index, packed.changedIDs, state.withLock { $0.lastChange }) }
        let result = await BlockingWork.onOwnThread(lowPriority: true) {
            Result { () throws(FlyerStoreError) in try repository.differences(from: index, excluding: known, loggedAfter: since) }
        }
        guard let differences = try result.get(), differences > 0 else {
            logger.debug("flyers: the stored search index matches the flyer table")
            return
        }
        logger.warning("flyers: the stored search index differs from the flyer table on \(differences) flyers (written without the change log?); building it again")
        try await load()
    }

    private func apply(_ found: [Flyer], changed ids: Set<String>) {
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

    /// Flyers on top of a packed index of about `indexed` flyers past which it is built again: `compactAfter`, or a
    /// tenth of the index when that is more. A build costs time in proportion to the catalogue, so with a fixed
    /// threshold a large catalogue under steady writes would be built again back to back; this way each write
    /// carries about the same share of the builds' cost at any size.
    static func compactionThreshold(compactAfter: Int, indexed: Int) -> Int {
        max(compactAfter, indexed / 10)
    }

    /// Stores the ids of the flyers changed since the stored index was built (one short write; the index stays).
    private func storeChanged() async {
        guard let packed else { return }
        do {
            try await serialised { () async throws(FlyerStoreError) in
                let changed = PersistedFlyerIndex.Changed(base: packed.base.change, change: state.withLock { $0.lastChange },
                                                          ids: packed.changedIDs.sorted())
                try await storeWrite { (repository) throws(FlyerStoreError) in try repository.saveChanged(changed) } or: {}
                state.withLock { $0.storedChange = max($0.storedChange, changed.change) }
            }
        } catch {
            logger.warning("flyers: the flyers changed since the stored search index could not be noted (\(error)); tried again at the next change")
        }
    }

    /// Builds and stores the packed index again on a niced thread of its own, while the cache keeps answering and
    /// writes go on; only putting it in place waits for the cache's other updates.
    private func compact() {
        state.withLock { $0.building = true }
        Task {
            defer { state.withLock { $0.building = false } }
            let result = await BlockingWork.onOwnThread(lowPriority: true) { Result { () throws(FlyerStoreError) in try self.buildAndStore() } }
            do {
                guard let built = try result.get() else { return }
                try await serialised { () async throws(FlyerStoreError) in try use(built) }
            } catch {
                logger.warning("flyers: the search index could not be built again: \(error)")
            }
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

    // MARK: Writing

    /// Adds new flyers (an id that exists already is an error) or, with `.upsert`, replaces them.
    /// Ids repeated within `flyers` are rejected, and then nothing is written.
    package func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try checkWritable()
        try await storeWrite { (repository) throws(FlyerStoreError) in try repository.write(flyers, mode: mode) } or: { () async throws(FlyerStoreError) in
            try await store.write(flyers, mode: mode)
        }
        await follow()
    }

    /// Deletes flyer `id`; false when there was none.
    package func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try checkWritable()
        let deleted = try await storeWrite { (repository) throws(FlyerStoreError) in try repository.delete(id: id) } or: { () async throws(FlyerStoreError) in
            try await store.delete(id: id)
        }
        await follow()
        return deleted
    }

    /// The flyer with this id, from the cache when warm.
    package func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await reader().searcher.flyer(id: id)
    }

    /// What the SpatiaLite store's background check found damaged.
    private var storeDamage: StoreError? { repository?.store.damage }

    private func checkWritable() throws(FlyerStoreError) {
        if let damage = storeDamage { throw .unavailable(damage.description) }
        let current = state.withLock { $0 }
        if !current.available { throw .unavailable(current.problem ?? "the database cannot be reached") }
    }

    /// Runs a write: with SpatiaLite, `spatiaLite` on the writes' own queue, since SQLite's writes block their thread
    /// while they run or wait for another writer's lock (up to `store.busy_timeout`), and waiting on a cooperative
    /// thread would leave none for searches (there are as many as cores); with PostGIS, `other`, which awaits.
    private func storeWrite<T: Sendable>(_ spatiaLite: @escaping @Sendable (SpatiaLiteFlyerStore) throws(FlyerStoreError) -> T,
                                         or other: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        guard let repository else { return try await noting(other) }
        let result = await withCheckedContinuation { continuation in
            writes.async { continuation.resume(returning: Result { () throws(FlyerStoreError) in try spatiaLite(repository) }) }
        }
        return try await noting { () throws(FlyerStoreError) in try result.get() }
    }

    /// Runs a store operation, noting when it finds the database unreachable.
    private func noting<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        do {
            return try await body()
        } catch {
            if case .unavailable(let problem) = error, storeDamage == nil { setAvailable(false, problem: problem) }
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
