import Foundation
import Logging
import MeridianCore
import MeridianStore

/// Writes through the catalogue: to the store (SpatiaLite's on a queue of their own), then the cache follows.
extension FlyerCatalog {
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

    /// What the SpatiaLite store's background check found damaged.
    var storeDamage: StoreError? { repository?.store.damage }

    func checkWritable() throws(FlyerStoreError) {
        if let damage = storeDamage { throw .unavailable(damage.description) }
        let current = state.withLock { $0 }
        if !current.available { throw .unavailable(current.problem ?? "the database cannot be reached") }
    }

    /// Runs a write: with SpatiaLite, `spatiaLite` on the writes' own queue, since SQLite's writes block their thread
    /// while they run or wait for another writer's lock (up to `store.busy_timeout`), and waiting on a cooperative
    /// thread would leave none for searches (there are as many as cores); with PostGIS, `other`, which awaits.
    func storeWrite<T: Sendable>(_ spatiaLite: @escaping @Sendable (SpatiaLiteFlyerStore) throws(FlyerStoreError) -> T,
                                         or other: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        guard let repository else { return try await noting(other) }
        let result = await withCheckedContinuation { continuation in
            writes.async { continuation.resume(returning: Result { () throws(FlyerStoreError) in try spatiaLite(repository) }) }
        }
        return try await noting { () throws(FlyerStoreError) in try result.get() }
    }

    /// Runs a store operation, noting when it finds the database unreachable.
    func noting<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        do {
            return try await body()
        } catch {
            if case .unavailable(let problem) = error, storeDamage == nil { setAvailable(false, problem: problem) }
            throw error
        }
    }

    /// Brings the cache up to date after an own write (a failure leaves it to the change feed).
    func follow() async {
        do {
            try await refresh()
        } catch {
            logger.warning("flyers: the cache could not follow a write yet: \(error)")
        }
    }
}
