import MeridianStore

/// Every flyer of the store in an in-memory index, loaded in full and then kept up to date from the change log
/// (the PostGIS store's cache).
final class WholeTableCache: FlyerCache {
    let store: any FlyerStore
    let index: FlyerIndex
    let cellSize: Double

    init(store: any FlyerStore, cellSize: Double) {
        self.store = store
        self.cellSize = cellSize
        index = FlyerIndex(cellSize: cellSize)
    }

    var count: Int { index.count }
    var searcher: any FlyerSearching { index }
    var proximitySource: any ProximitySource { index }
    var damage: StoreError? { nil }

    func apply(_ found: [Flyer], changed ids: Set<String>) {
        let present = Set(found.map(\.id))
        index.upsert(found)
        for id in ids where !present.contains(id) { index.remove(id: id) }
    }

    func first(_ limit: Int) -> [Flyer] {
        index.list(limit: limit, after: nil).flyers
    }

    /// Nothing is stored: the cache is loaded by `load`.
    func start(for catalog: FlyerCatalog, building: Bool) -> Bool { false }

    /// Reads every flyer into a new index and swaps it in (at start, and after a reconnect).
    func load(for catalog: FlyerCatalog) async throws(FlyerStoreError) {
        let latest = try await store.lastChange()
        let fresh = FlyerIndex(cellSize: cellSize)
        var loader = FlyerIndex.Loader(into: fresh)
        try await store.forEach { loader.add($0) }
        loader.finish()
        index.replaceContents(with: fresh)
        catalog.state.withLock {
            $0.lastChange = latest
            $0.warm = true
            $0.loaded = true
        }
        catalog.logger.debug(
            "flyers: cache loaded", metadata: ["flyers": "\(index.count)", "backend": "\(store.backend)"])
    }

    func prepare(for catalog: FlyerCatalog) async {}

    func followed(by catalog: FlyerCatalog) async {}

    func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try await store.write(flyers, mode: mode)
    }

    func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try await store.delete(id: id)
    }
}
