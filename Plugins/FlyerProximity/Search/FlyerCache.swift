import MeridianStore

/// How a catalogue caches its store's flyers. The store makes it (`FlyerStore.makeCache`), so the catalogue
/// never asks which backend it has: both keep a packed index the store keeps with the flyers changed since on top
/// (`StoredIndexCache` for SpatiaLite, `PostGISIndexCache` for PostGIS).
///
/// The catalogue keeps the state (latest change, warm, loaded) and runs `load` and the updates one at a time;
/// the cache's methods that take the catalogue read and set that state.
package protocol FlyerCache: Sendable {
    /// The number of cached flyers.
    var count: Int { get }
    /// Searches answered by the cache (the database answers what the cache does not hold, such as listings).
    var searcher: any FlyerSearching { get }
    /// What the proximity watcher reads.
    var proximitySource: any ProximitySource { get }
    /// Damage the store's own check found: writes are refused, and a cold cache is not built.
    var damage: StoreError? { get }

    /// Puts `found` in and takes out the flyers of `ids` that are not among them.
    func apply(_ found: [Flyer], changed ids: Set<String>)
    /// The first `limit` flyers by id (none when the database cannot say).
    func first(_ limit: Int) -> [Flyer]

    /// At creation: takes a stored copy of the cache when there is a sound one, else with `building` builds it
    /// now; true when the cache is warm then.
    func start(for catalog: FlyerCatalog, building: Bool) throws(FlyerStoreError) -> Bool
    /// Fills the cache from the store (the catalogue runs it after its other updates).
    func load(for catalog: FlyerCatalog) async throws(FlyerStoreError)
    /// Once the service runs: what the cache does in the background (SpatiaLite: build or check the stored index).
    func prepare(for catalog: FlyerCatalog) async throws(FlyerStoreError)
    /// After the cache has followed the store's changes (SpatiaLite: note or build the stored index again).
    func followed(by catalog: FlyerCatalog) async
    /// Makes the word index of the packed index now (else the first text search starts it aside, the database
    /// answering until it is made).
    func makeWords()

    /// Writes `flyers` to the store, from async code (SpatiaLite on a queue of its own).
    func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError)
    /// Deletes flyer `id` from the store; false when there was none.
    func delete(id: String) async throws(FlyerStoreError) -> Bool
}
