import Foundation
import Logging

/// Where flyers are kept: SpatiaLite (`SpatiaLiteFlyerStore`, embedded, the default) or PostGIS
/// (`PostGISFlyerStore`, one catalogue for many service instances). Both keep the same fields,
/// write every batch in one transaction (all or nothing) and log every change so that each
/// instance's in-memory index can follow writes made elsewhere (`changes(after:)`). Callers never ask
/// which one they have: searching without a cache, following changes, finishing a bulk write and closing
/// are the store's own. `FlyerStoreConformance` (MeridianTesting) checks any implementation.
package protocol FlyerStore: Sendable {
    /// `spatialite` or `postgis`.
    var backend: String { get }

    /// Writes `flyers` in one transaction; ids repeated within `flyers` are rejected.
    func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError)

    /// Reads `source` while writing it, in one transaction (an invalid flyer anywhere writes
    /// none); returns how many were written.
    func write(
        from source: some FlyerSource, mode: FlyerWriteMode,
        progress: ((FlyerWriteProgress) -> Void)?
    ) async throws(FlyerStoreError) -> Int

    /// Deletes flyer `id`; false when there was none.
    func delete(id: String) async throws(FlyerStoreError) -> Bool

    /// The flyer with this id.
    func flyer(id: String) async throws(FlyerStoreError) -> Flyer?

    /// The stored flyers among `ids` (missing ids are left out).
    func flyers(ids: [String]) async throws(FlyerStoreError) -> [Flyer]

    /// Calls `body` with every stored flyer in id order.
    func forEach(_ body: (Flyer) throws -> Void) async throws(FlyerStoreError)

    /// The number of the latest logged change (0 when none).
    func lastChange() async throws(FlyerStoreError) -> Int64

    /// What changed after change `after`.
    func changes(after: Int64) async throws(FlyerStoreError) -> FlyerChanges

    /// Sets the text-search words (`SearchWords.stored`) of `flyers` where the stored ones differ: rows another
    /// program wrote carry none, or those of an older text. Nothing is written when all match.
    func repairWords(of flyers: [Flyer]) async throws(FlyerStoreError)

    /// Searches the database answers by itself, exactly as a cache would (for a catalogue whose cache is cold).
    func makeDatabaseSearch() -> any FlyerSearching

    /// How a catalogue caches this store's flyers, with a grid of `cellSize` degrees (see `FlyerCache`).
    func makeCache(cellSize: Double) -> any FlyerCache

    /// What answers one command's search without loading a cache.
    func searcherForOneQuery() throws(FlyerStoreError) -> any FlyerSearching

    /// Keeps `catalog`'s cache following every writer's changes until the task is cancelled.
    func followChanges(of catalog: FlyerCatalog, logger: Logger) async

    /// Leaves what the next service start reads after a command's bulk write (SpatiaLite: the search index).
    func finishBulkWrite() async throws(FlyerStoreError)

    /// Releases what the store holds open; nothing may be asked of it after.
    func close() async
}

extension FlyerStore {
    /// Every stored flyer, in id order.
    package func all() async throws(FlyerStoreError) -> [Flyer] {
        var flyers: [Flyer] = []
        try await forEach { flyers.append($0) }
        return flyers
    }
}

/// How writes treat an id that exists already.
package enum FlyerWriteMode: Sendable {
    /// Fail with `duplicateID`.
    case create
    /// Replace the stored flyer.
    case upsert
}

/// How far a write has come.
package struct FlyerWriteProgress: Sendable {
    /// Flyers written so far.
    package var written: Int
    /// How much of the input has been read, from 0 to 1.
    package var fractionRead: Double
}

/// The flyers changed after some change number, from the store's change log.
package struct FlyerChanges: Sendable, Equatable {
    /// The latest change number seen.
    package var latest: Int64
    /// Ids written or deleted since; nil when too much changed (a bulk write, a gap in the log)
    /// and everything must be read again.
    package var ids: Set<String>?

    /// The most ids handed out one by one; more is a full reload.
    static let limit = 10_000

    /// Changes from log rows (`nil` id: everything), judged against the oldest number still logged.
    init(after: Int64, rows: [(seq: Int64, id: String?)], oldestLogged: Int64?) {
        latest = rows.last?.seq ?? after
        if rows.count > Self.limit || rows.contains(where: { $0.id == nil })
            || (oldestLogged.map { $0 > after + 1 } ?? false) && !rows.isEmpty
        {
            ids = nil
        } else {
            ids = Set(rows.compactMap(\.id))
        }
    }
}
