import Logging

/// What the SpatiaLite store does for its callers beyond reading and writing (see `FlyerStore`).
extension SpatiaLiteFlyerStore {
    package func makeDatabaseSearch() -> any FlyerSearching {
        SpatiaLiteSearch(repository: self)
    }

    /// The packed search index stored in the database, with the flyers changed since on top.
    package func makeCache(cellSize: Double) -> any FlyerCache {
        StoredIndexCache(repository: self, cellSize: cellSize)
    }

    /// The stored search index when it can be used, else SpatiaLite itself (one search does not pay for building it).
    package func searcherForOneQuery() throws(FlyerStoreError) -> any FlyerSearching {
        let catalog = FlyerCatalog(
            store: self, logger: Logger(label: "meridian.flyers", factory: { _ in SwiftLogNoOpLogHandler() }))
        guard try catalog.openStoredIndex() else { return makeDatabaseSearch() }
        return try catalog.reader().searcher
    }

    /// Polls the change log, which every process's writes fill (triggers).
    package func followChanges(of catalog: FlyerCatalog, logger: Logger) async {
        await FlyerChangeFeed(catalog: catalog, logger: logger).poll()
    }

    /// Stores the search index, so that the next service start reads it instead of building it.
    package func finishBulkWrite() throws(FlyerStoreError) {
        try storeSearchIndex()
    }

    /// Nothing: the SpatiaLite file belongs to whoever opened it (the service, or a command).
    package func close() async {}
}
