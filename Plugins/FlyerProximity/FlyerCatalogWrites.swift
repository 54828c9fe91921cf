import Foundation
import Logging
import MeridianCore
import MeridianStore

/// Writes through the catalogue: to the store (through the cache, which knows where they must run), then the
/// cache follows.
extension FlyerCatalog {
    /// Adds new flyers (an id that exists already is an error) or, with `.upsert`, replaces them.
    /// Ids repeated within `flyers` are rejected, and then nothing is written.
    package func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        try checkWritable()
        try await noting { () async throws(FlyerStoreError) in try await cache.write(flyers, mode: mode) }
        await follow()
    }

    /// Deletes flyer `id`; false when there was none.
    package func delete(id: String) async throws(FlyerStoreError) -> Bool {
        try checkWritable()
        let deleted = try await noting { () async throws(FlyerStoreError) in try await cache.delete(id: id) }
        await follow()
        return deleted
    }

    func checkWritable() throws(FlyerStoreError) {
        if let damage = cache.damage { throw .unavailable(damage.description) }
        let current = state.withLock { $0 }
        if !current.available { throw .unavailable(current.problem ?? "the database cannot be reached") }
    }

    /// Runs a store operation, noting when it finds the database unreachable.
    func noting<T>(_ body: () async throws(FlyerStoreError) -> T) async throws(FlyerStoreError) -> T {
        do {
            return try await body()
        } catch {
            if case .unavailable(let problem) = error, cache.damage == nil { setAvailable(false, problem: problem) }
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
