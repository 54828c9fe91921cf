import Foundation
import Logging
import MeridianCore
import MeridianStore

/// The SpatiaLite catalogue's stored search index: reading it back at start, building and storing it (at start,
/// in the background when too much lies on top of it), noting the flyers changed since, and checking it against
/// the flyer table once the service runs.
extension FlyerCatalog {
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
    func build() throws(FlyerStoreError) {
        guard let built = try buildAndStore() else { return }
        try use(built)
    }

    /// The packed index of every stored flyer (read in one transaction, which no writer waits for), stored; the
    /// store's write lock is held only while the arrays are written.
    func buildAndStore() throws(FlyerStoreError) -> (index: PackedFlyerIndex, change: Int64, stored: Bool)? {
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
    func use(_ built: (index: PackedFlyerIndex, change: Int64, stored: Bool)) throws(FlyerStoreError) {
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
    func buildInBackground() async throws(FlyerStoreError) {
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

    /// Flyers on top of a packed index of about `indexed` flyers past which it is built again: `compactAfter`, or a
    /// tenth of the index when that is more. A build costs time in proportion to the catalogue, so with a fixed
    /// threshold a large catalogue under steady writes would be built again back to back; this way each write
    /// carries about the same share of the builds' cost at any size.
    static func compactionThreshold(compactAfter: Int, indexed: Int) -> Int {
        max(compactAfter, indexed / 10)
    }

    /// Stores the ids of the flyers changed since the stored index was built (one short write; the index stays).
    func storeChanged() async {
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
    func compact() {
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
}
