import Foundation
import MeridianStore

/// The PostGIS store's cache: the packed search index kept in PostgreSQL (`PostGISSearchIndex`), read back in bulk
/// at start and after a reconnect, with the flyers the change log names since on top (`PackedCache`). It is built
/// from the flyer table (and stored) only when there is none that fits or the change log no longer reaches back to
/// it; PostGIS answers meanwhile. A read-back index is compared with the flyer table in the background, and built
/// again when they differ (a write that bypassed the change log).
final class PostGISIndexCache: FlyerCache {
    let store: PostGISFlyerStore
    let packed: PackedCache
    let cellSize: Double
    /// The packed index, with PostGIS for listings.
    let searcher: any FlyerSearching

    init(store: PostGISFlyerStore, cellSize: Double) {
        self.store = store
        self.cellSize = cellSize
        packed = PackedCache(cellSize: cellSize)
        searcher = PackedSearch(cache: packed, database: PostGISSearch(store: store))
    }

    var count: Int { packed.count }
    var proximitySource: any ProximitySource { packed }
    var damage: StoreError? { nil }

    func makeWords() {
        packed.makeWords()
    }

    func apply(_ found: [Flyer], changed ids: Set<String>) {
        packed.apply(found, changed: ids)
    }

    func first(_ limit: Int) -> [Flyer] {
        packed.list(limit: limit, after: nil).flyers
    }

    /// Nothing is read before the service runs: `load` reads the stored index once the store is reached.
    func start(for catalog: FlyerCatalog, building: Bool) -> Bool { false }

    /// Reads the stored index and the changes since, or builds it from the table and stores it.
    func load(for catalog: FlyerCatalog) async throws(FlyerStoreError) {
        if try await readStoredIndex(catalog) { return }
        try await use(try await buildAndStore(catalog), catalog)
    }

    /// Nothing before the store is reached (the change feed loads the cache).
    func prepare(for catalog: FlyerCatalog) async {}

    /// Builds the index again in the background once the flyers on top of it pass the threshold
    /// (`StoredIndexCache.compactionThreshold`), while the cache keeps answering.
    func followed(by catalog: FlyerCatalog) async {
        let threshold = StoredIndexCache.compactionThreshold(
            compactAfter: catalog.compactAfter, indexed: packed.base.index.count)
        let start = catalog.state.withLock { state -> Bool in
            guard !state.building, packed.overlayCount > threshold else { return false }
            state.building = true
            return true
        }
        guard start else { return }
        Task(priority: .background) {
            defer { catalog.state.withLock { $0.building = false } }
            do {
                let built = try await buildAndStore(catalog, onlyIfNewer: true)
                try await catalog.serialised { () async throws(FlyerStoreError) in try await use(built, catalog) }
            } catch {
                catalog.logger.warning("flyers: the search index could not be built again: \(error)")
            }
        }
    }

    func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try await store.write(flyers, mode: mode)
    }

    func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try await store.delete(id: id)
    }

    /// Takes the stored index when it is sound and the change log reaches back to it, applies the changes since, and
    /// starts its comparison with the table; true when the cache is warm then.
    private func readStoredIndex(_ catalog: FlyerCatalog) async throws(FlyerStoreError) -> Bool {
        switch try await store.storedIndex(cellSize: cellSize) {
        case .none:
            catalog.logger.info("flyers: no search index stored in PostGIS yet; building it while PostGIS answers")
            return false
        case .rejected(let reason):
            catalog.logger.warning(
                "flyers: the search index stored in PostGIS is not used: \(reason); building it again while PostGIS answers"
            )
            return false
        case .found(let index, let meta, _):
            guard try await store.lastChange() >= meta.change else {
                catalog.logger.info(
                    "flyers: the stored search index is newer than the change log (a restored database?); building it again"
                )
                return false
            }
            let changes = try await store.changes(after: meta.change)
            guard let ids = changes.ids else {
                catalog.logger.info(
                    "flyers: too much changed since the stored search index was built; building it again while PostGIS answers"
                )
                return false
            }
            packed.replaceBase(with: index, change: meta.change)
            packed.apply(try await store.flyers(ids: Array(ids)), changed: ids)
            catalog.state.withLock {
                $0.lastChange = changes.latest
                $0.readBack = true
                $0.warm = true
                $0.loaded = true
            }
            catalog.logger.info(
                "flyers: stored search index read",
                metadata: ["flyers": "\(packed.count)", "changes since": "\(ids.count)"])
            Task(priority: .background) { await verify(catalog) }
            return true
        }
    }

    /// Compares the read-back index with the flyer table (leaving out what changed since it was built) and builds it
    /// again when they differ.
    private func verify(_ catalog: FlyerCatalog) async {
        let packed = self.packed
        let (index, known, since) = await catalog.serial.run {
            (packed.base.index, packed.changedIDs, catalog.state.withLock { $0.lastChange })
        }
        do {
            guard let differences = try await store.differences(from: index, excluding: known, loggedAfter: since),
                differences > 0
            else {
                catalog.logger.debug("flyers: the stored search index matches the flyer table")
                return
            }
            catalog.logger.warning(
                "flyers: the stored search index differs from the flyer table on \(differences) flyers (written without the change log?); building it again"
            )
            let built = try await buildAndStore(catalog)
            try await catalog.serialised { () async throws(FlyerStoreError) in try await use(built, catalog) }
        } catch {
            catalog.logger.warning(
                "flyers: the stored search index could not be compared with the flyer table: \(error)")
        }
    }

    /// The packed index of every stored flyer, stored (with `onlyIfNewer`, unless another instance stored one as
    /// recent).
    private func buildAndStore(_ catalog: FlyerCatalog, onlyIfNewer: Bool = false) async throws(FlyerStoreError)
        -> (index: PackedFlyerIndex, change: Int64)
    {
        let built = try await store.buildIndex(cellSize: cellSize)
        do {
            if try await store.saveIndex(built.index, change: built.change, onlyIfNewer: onlyIfNewer) {
                catalog.logger.info(
                    "flyers: search index built and stored", metadata: ["flyers": "\(built.index.count)"])
            }
        } catch {
            catalog.logger.warning(
                "flyers: the search index could not be stored (\(error)); it is built again at the next start")
        }
        return built
    }

    /// Makes `built` the cache, with the changes since it was built applied.
    private func use(_ built: (index: PackedFlyerIndex, change: Int64), _ catalog: FlyerCatalog)
        async throws(FlyerStoreError)
    {
        packed.replaceBase(with: built.index, change: built.change)
        let changes = try await store.changes(after: built.change)
        if let ids = changes.ids { packed.apply(try await store.flyers(ids: Array(ids)), changed: ids) }
        catalog.state.withLock {
            $0.lastChange = changes.ids == nil ? built.change : changes.latest
            $0.readBack = false
            $0.warm = true
            $0.loaded = true
        }
    }
}
