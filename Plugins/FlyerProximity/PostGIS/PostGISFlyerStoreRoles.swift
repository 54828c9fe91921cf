import Logging

/// What the PostGIS store does for its callers beyond reading and writing (see `FlyerStore`).
extension PostGISFlyerStore {
    package func makeDatabaseSearch() -> any FlyerSearching {
        PostGISSearch(store: self)
    }

    /// The packed search index stored in PostgreSQL, read back at start and after a reconnect (`PostGISIndexCache`).
    package func makeCache(cellSize: Double) -> any FlyerCache {
        PostGISIndexCache(store: self, cellSize: cellSize)
    }

    /// PostGIS answers one search by itself.
    package func searcherForOneQuery() throws(FlyerStoreError) -> any FlyerSearching {
        makeDatabaseSearch()
    }

    /// Listens for the change notifications of every instance's writes, reconnecting while the server is away.
    package func followChanges(of catalog: FlyerCatalog, logger: Logger) async {
        await FlyerChangeFeed(catalog: catalog, logger: logger).listen(self)
    }

    /// Builds the search index from every stored flyer and stores it, so that instances read it at start, while
    /// PostgreSQL builds the words' text index a bulk write dropped; waits for both.
    package func finishBulkWrite() async throws(FlyerStoreError) {
        wordsIndex.ensure(self)
        let built = try await buildIndex(cellSize: 0.05)
        try await saveIndex(built.index, change: built.change)
        await wordsIndex.wait()
    }
}
