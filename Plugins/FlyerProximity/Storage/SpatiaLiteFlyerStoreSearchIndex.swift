import GRDB

/// The packed search index and the flyer table: building it, storing it, reading it back, and
/// checking it against the table.
extension SpatiaLiteFlyerStore {
    /// The stored search index, checked, or why it cannot be used, with the latest change and whether the change
    /// log is proven to name every flyer written since the index last matched the table (`ChangeLogProof`).
    func storedIndex(cellSize: Double) throws(FlyerStoreError) -> (
        found: PersistedFlyerIndex.Found, latest: Int64, proven: Bool
    ) {
        try run {
            try store.database.read { db in
                // Read through a memory map of the file (no read() per page); unmapped again after.
                try db.execute(sql: "PRAGMA mmap_size = 2147418112")
                defer { try? db.execute(sql: "PRAGMA mmap_size = 0") }
                return (
                    try PersistedFlyerIndex.load(from: db, cellSize: cellSize), try Self.lastChange(db),
                    try ChangeLogProof.holds(db)
                )
            }
        }
    }

    /// The flyer table's schema now (read before comparing the index with the table: see `ChangeLogProof`).
    func flyerSchema() throws(FlyerStoreError) -> String {
        try run { try store.database.read { db in try ChangeLogProof.schema(db) } }
    }

    /// A packed index of every stored flyer, with the change it holds and the flyer table's schema it was read
    /// with (one read transaction).
    func buildIndex(cellSize: Double) throws(FlyerStoreError) -> (
        index: PackedFlyerIndex, change: Int64, schema: String
    ) {
        try run {
            try store.database.read { db in
                let change = try Self.lastChange(db)
                var builder = PackedIndexBuilder(cellSize: cellSize)
                try Self.eachFlyer(db) {
                    builder.add($0)
                    return true
                }
                return (builder.build(), change, try ChangeLogProof.schema(db))
            }
        }
    }

    /// Builds the search index from every stored flyer and stores it, so that the next service start reads
    /// it instead of building it (after a bulk import). Returns the number of flyers it holds.
    @discardableResult
    package func storeSearchIndex(cellSize: Double = 0.05) throws(FlyerStoreError) -> Int {
        let built = try buildIndex(cellSize: cellSize)
        try saveIndex(built.index, change: built.change, builtAtSchema: built.schema)
        return built.index.count
    }

    /// Stores `index`, built at change `change`, as the search index (replacing the stored one), in short
    /// transactions that writers of flyers wait for one at a time (see `PersistedFlyerIndex`); with
    /// `builtAtSchema`, the flyer table's schema it was built with, as the change log's proof (`ChangeLogProof`).
    func saveIndex(
        _ index: PackedFlyerIndex, change: Int64, builtAtSchema: String? = nil,
        chunkBytes: Int = PersistedFlyerIndex.chunkBytes, afterChunk: () throws -> Void = {}
    ) throws(FlyerStoreError) {
        try run {
            try PersistedFlyerIndex.save(
                index, change: change, to: store.database, chunkBytes: chunkBytes, afterChunk: afterChunk)
        }
        if let builtAtSchema { try saveProof(builtAtSchema) }
    }

    /// Records that the stored index and the change log matched the table with its schema `schema`.
    func saveProof(_ schema: String) throws(FlyerStoreError) {
        try run { try store.database.write { db in try ChangeLogProof.record(schema, in: db) } }
    }

    /// Stores which flyers changed since the stored index was built, leaving the index as it is (one short write).
    func saveChanged(_ changed: PersistedFlyerIndex.Changed) throws(FlyerStoreError) {
        try run {
            try store.database.write { db in try PersistedFlyerIndex.save(changed, in: db) }
        }
    }

    /// How many flyers the table and `index` disagree on, leaving out those changed since it was built
    /// (`known`, and those the change log names after change `change`): each other flyer the table holds
    /// otherwise than the index, or that only one of them holds. Nil when the change log no longer reaches
    /// back to `change` (the index is then built again anyway). One read transaction.
    func differences(from index: PackedFlyerIndex, excluding known: Set<String>, loggedAfter change: Int64)
        throws(FlyerStoreError) -> Int?
    {
        try run {
            try store.database.read { db in
                guard let logged = try Self.changes(db, after: change).ids else { return nil }
                var agreement = IndexAgreement(index, changed: known.union(logged))
                try Self.eachFlyer(db) {
                    agreement.visit($0)
                    return true
                }
                return agreement.differences
            }
        }
    }
}
