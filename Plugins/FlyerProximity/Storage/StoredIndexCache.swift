import Foundation
import MeridianCore
import MeridianStore

/// The SpatiaLite store's cache: the packed search index kept in the database (`PersistedFlyerIndex`), read back
/// at start, with the flyers changed since on top; built again (and stored) when it is missing, damaged, too far
/// behind or found to differ from the flyer table, and while it is built SpatiaLite answers searches itself.
final class StoredIndexCache: FlyerCache {
    let repository: SpatiaLiteFlyerStore
    /// The packed index with the flyers changed since on top.
    let packed: PackedCache
    let cellSize: Double
    /// The packed index, with SpatiaLite for listings.
    let searcher: any FlyerSearching
    /// Changes since the stored index (or its `changed` row) past which the ids of the flyers changed since the
    /// index are stored again (a short write), so that the next start need not find the index's change in the
    /// change log (the latest 10,000 entries).
    static let restoreAfterChanges: Int64 = 5_000
    /// Where writes wait for SQLite's write lock and run (see `onWriteQueue`).
    private let writes = DispatchQueue(label: "meridian.flyers.writes")

    init(repository: SpatiaLiteFlyerStore, cellSize: Double) {
        self.repository = repository
        self.cellSize = cellSize
        packed = PackedCache(cellSize: cellSize)
        searcher = PackedSearch(cache: packed, database: SpatiaLiteSearch(repository: repository))
    }

    var count: Int { packed.count }
    var proximitySource: any ProximitySource { packed }
    /// What the SpatiaLite store's background check found damaged.
    var damage: StoreError? { repository.store.damage }

    func makeWords() {
        packed.makeWords()
    }

    func apply(_ found: [Flyer], changed ids: Set<String>) {
        packed.apply(found, changed: ids)
    }

    func first(_ limit: Int) -> [Flyer] {
        var flyers: [Flyer] = []
        try? repository.scan("1 ORDER BY id LIMIT ?", [limit]) {
            flyers.append($0)
            return true
        }
        return flyers
    }

    func start(for catalog: FlyerCatalog, building: Bool) throws(FlyerStoreError) -> Bool {
        if try openStoredIndex(catalog) { return true }
        if building { try build(catalog) }
        return false
    }

    /// Marks the cache cold (SpatiaLite answers) and builds and stores the packed index in the background.
    func load(for catalog: FlyerCatalog) async throws(FlyerStoreError) {
        catalog.markCold()
        try await buildInBackground(catalog)
    }

    func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try await onWriteQueue { (repository) throws(FlyerStoreError) in try repository.write(flyers, mode: mode) }
    }

    func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try await onWriteQueue { (repository) throws(FlyerStoreError) in try repository.delete(id: id) }
    }

    /// Runs `body` on the writes' own queue, since SQLite's writes block their thread while they run or wait for
    /// another writer's lock (up to `store.busy_timeout`), and waiting on a cooperative thread would leave none for
    /// searches (there are as many as cores).
    private func onWriteQueue<T: Sendable>(
        _ body: @escaping @Sendable (SpatiaLiteFlyerStore) throws(FlyerStoreError) -> T
    ) async throws(FlyerStoreError) -> T {
        let repository = self.repository
        let result = await withCheckedContinuation { continuation in
            writes.async {
                continuation.resume(returning: Result { () throws(FlyerStoreError) in try body(repository) })
            }
        }
        return try result.get()
    }

    /// Takes the stored index when it is sound and the change log reaches back to it, and applies the
    /// changes since; true when the cache is warm then. The cache answers at once only when the change log is
    /// proven to name every write since the index last matched the table (`ChangeLogProof`); else SpatiaLite
    /// answers until `prepare` has compared the two. When SQLite cannot read it (the file is damaged there),
    /// the store refuses writes and the cache stays cold: SpatiaLite answers from the file itself.
    private func openStoredIndex(_ catalog: FlyerCatalog) throws(FlyerStoreError) -> Bool {
        let found: PersistedFlyerIndex.Found, latest: Int64, proven: Bool
        do {
            (found, latest, proven) = try repository.storedIndex(cellSize: cellSize)
        } catch {
            guard damage != nil else { throw error }
            catalog.logger.error(
                "flyers: the stored search index cannot be read (the damage is logged above); SpatiaLite answers searches from the file itself"
            )
            return false
        }
        switch found {
        case .none:
            catalog.logger.info("flyers: no stored search index yet; building it")
            return false
        case .rejected(let reason):
            catalog.logger.warning("flyers: the stored search index is not used: \(reason); building it again")
            return false
        case .found(let stored, let meta, let changed):
            let since = changed?.change ?? meta.change
            guard latest >= since else {
                catalog.logger.info(
                    "flyers: the stored search index is newer than the flyer table's change log (a restored copy?); building it again"
                )
                return false
            }
            let changes = try repository.changes(after: since)
            guard let logged = changes.ids else {
                catalog.logger.info(
                    "flyers: too much changed since the stored search index was built; building it again")
                return false
            }
            let ids = logged.union(changed?.ids ?? [])
            packed.replaceBase(with: stored, change: meta.change)
            let found = try repository.flyers(ids: Array(ids))
            apply(found, changed: ids)
            catalog.state.withLock {
                $0.lastChange = changes.latest
                $0.storedChange = since
                $0.readBack = true
                $0.warm = proven
                $0.loaded = proven
            }
            catalog.logger.info(
                "flyers: stored search index read",
                metadata: ["flyers": "\(packed.count)", "changes since": "\(ids.count)"])
            if !proven {
                catalog.logger.notice(
                    "flyers: the flyer table's schema changed since the stored search index last matched it (a program may have written flyers past the change log); SpatiaLite answers until the two are compared"
                )
            }
            return proven
        }
    }

    /// Builds the packed index from every stored flyer (on this thread), stores it, and makes it the
    /// cache with the changes since applied.
    private func build(_ catalog: FlyerCatalog) throws(FlyerStoreError) {
        try use(try buildAndStore(catalog), catalog)
    }

    /// The packed index of every stored flyer (read in one transaction, which no writer waits for), stored; the
    /// store's write lock is held only while the arrays are written.
    private func buildAndStore(_ catalog: FlyerCatalog) throws(FlyerStoreError) -> (
        index: PackedFlyerIndex, change: Int64, stored: Bool
    ) {
        let built = try repository.buildIndex(cellSize: cellSize)
        do {
            try repository.saveIndex(built.index, change: built.change, builtAtSchema: built.schema)
            return (built.index, built.change, true)
        } catch {
            catalog.logger.warning(
                "flyers: the search index could not be stored (\(error)); it is built again at the next start")
            return (built.index, built.change, false)
        }
    }

    /// Makes `built` the cache, with the changes since it was built applied.
    private func use(_ built: (index: PackedFlyerIndex, change: Int64, stored: Bool), _ catalog: FlyerCatalog)
        throws(FlyerStoreError)
    {
        packed.replaceBase(with: built.index, change: built.change)
        let changes = try repository.changes(after: built.change)
        if let ids = changes.ids {
            apply(try repository.flyers(ids: Array(ids)), changed: ids)
        }
        catalog.state.withLock {
            $0.lastChange = changes.ids == nil ? built.change : changes.latest
            if built.stored { $0.storedChange = built.change }
            $0.readBack = false
            $0.warm = true
            $0.loaded = true
        }
        catalog.logger.info("flyers: search index built and stored", metadata: ["flyers": "\(built.index.count)"])
    }

    /// Builds the packed index off the cooperative threads (SpatiaLite answers while the cache is cold); not in
    /// a damaged store, which could not store it and whose flyers SpatiaLite reads as they are.
    private func buildInBackground(_ catalog: FlyerCatalog) async throws(FlyerStoreError) {
        guard damage == nil else { return }
        let result = await BlockingWork.onOwnThread { Result { () throws(FlyerStoreError) in try self.build(catalog) } }
        try result.get()
    }

    /// SpatiaLite (the service calls this once it runs): builds the index when the stored one could not
    /// be used; else compares the stored one with the flyer table, off the cooperative threads, and builds
    /// it again when they differ (a write that bypassed the change log), or, when they agree and the index
    /// was not proven current at start, lets it answer from then on.
    func prepare(for catalog: FlyerCatalog) async throws(FlyerStoreError) {
        let (warm, readBack) = catalog.state.withLock { ($0.warm, $0.readBack) }
        guard warm || readBack else {
            return try await catalog.serialised { () async throws(FlyerStoreError) in
                try await buildInBackground(catalog)
            }
        }
        guard readBack else { return }
        // The flyers the cache has taken from the table since the index was built are left out, as are those logged after.
        let (packed, repository) = (self.packed, self.repository)
        let (index, known, since) = await catalog.serial.run {
            (packed.base.index, packed.changedIDs, catalog.state.withLock { $0.lastChange })
        }
        let result = await BlockingWork.onOwnThread(lowPriority: true) {
            Result { () throws(FlyerStoreError) in
                // Read before comparing: a schema change meanwhile leaves the proof behind it, never ahead.
                let schema = try repository.flyerSchema()
                return (schema, try repository.differences(from: index, excluding: known, loggedAfter: since))
            }
        }
        let (schema, found) = try result.get()
        guard let differences = found, differences > 0 else {
            if found == nil, !warm {
                catalog.logger.info(
                    "flyers: too much changed since the stored search index was built; building it again")
                return try await catalog.load()
            }
            catalog.logger.debug("flyers: the stored search index matches the flyer table")
            guard !warm else { return }
            // Proven now; a proof refused while the store's check holds writes means another comparison next start.
            try? await onWriteQueue { (repository) throws(FlyerStoreError) in try repository.saveProof(schema) }
            catalog.state.withLock {
                $0.warm = true
                $0.loaded = true
            }
            catalog.logger.info("flyers: the stored search index matches the flyer table; it answers searches")
            return
        }
        catalog.logger.warning(
            "flyers: the stored search index differs from the flyer table on \(differences) flyers (written without the change log?); building it again"
        )
        try await catalog.load()
    }

    /// After the cache followed the store: builds the index again past the threshold, or notes the flyers changed
    /// since it was stored past `restoreAfterChanges` changes; nothing in a damaged store.
    func followed(by catalog: FlyerCatalog) async {
        guard damage == nil else { return }
        let (latest, stored, building) = catalog.state.withLock { ($0.lastChange, $0.storedChange, $0.building) }
        if !building,
            packed.overlayCount
                > Self.compactionThreshold(compactAfter: catalog.compactAfter, indexed: packed.base.index.count)
        {
            compact(catalog)
        } else if latest - stored > Self.restoreAfterChanges {
            await storeChanged(catalog)
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
    private func storeChanged(_ catalog: FlyerCatalog) async {
        do {
            try await catalog.serialised { () async throws(FlyerStoreError) in
                let changed = PersistedFlyerIndex.Changed(
                    base: packed.base.change, change: catalog.state.withLock { $0.lastChange },
                    ids: packed.changedIDs.sorted())
                try await catalog.noting { () async throws(FlyerStoreError) in
                    try await onWriteQueue { (repository) throws(FlyerStoreError) in try repository.saveChanged(changed)
                    }
                }
                catalog.state.withLock { $0.storedChange = max($0.storedChange, changed.change) }
            }
        } catch {
            catalog.logger.warning(
                "flyers: the flyers changed since the stored search index could not be noted (\(error)); tried again at the next change"
            )
        }
    }

    /// Builds and stores the packed index again on a niced thread of its own, while the cache keeps answering and
    /// writes go on; only putting it in place waits for the cache's other updates.
    private func compact(_ catalog: FlyerCatalog) {
        catalog.state.withLock { $0.building = true }
        Task {
            defer { catalog.state.withLock { $0.building = false } }
            let result = await BlockingWork.onOwnThread(lowPriority: true) {
                Result { () throws(FlyerStoreError) in try self.buildAndStore(catalog) }
            }
            do {
                let built = try result.get()
                try await catalog.serialised { () async throws(FlyerStoreError) in try use(built, catalog) }
            } catch {
                catalog.logger.warning("flyers: the search index could not be built again: \(error)")
            }
        }
    }
}
