import Logging

/// What the PostGIS store does for its callers beyond reading and writing (see `FlyerStore`).
extension PostGISFlyerStore {
    package func makeDatabaseSearch() -> any FlyerSearching {
        PostGISSearch(store: self)
    }

    /// Every flyer in memory, loaded in full at start and after a reconnect.
    package func makeCache(cellSize: Double) -> any FlyerCache {
        WholeTableCache(store: self, cellSize: cellSize)
    }

    /// PostGIS answers one search by itself.
    package func searcherForOneQuery() throws(FlyerStoreError) -> any FlyerSearching {
        makeDatabaseSearch()
    }

    /// Listens for the change notifications of every instance's writes, reconnecting while the server is away.
    package func followChanges(of catalog: FlyerCatalog, logger: Logger) async {
        await FlyerChangeFeed(catalog: catalog, logger: logger).listen(self)
    }

    /// Nothing: every instance reads PostGIS itself at start.
    package func finishBulkWrite() throws(FlyerStoreError) {}
}
