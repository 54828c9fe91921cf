import Foundation
import Logging
import PostgresNIO

/// The packed search index kept in PostGIS (`flyer_search_index`: the rows and meta row `PersistedFlyerIndex`
/// describes, the same bytes the SpatiaLite store keeps), so that an instance reads it in bulk at start instead of
/// building it from every flyer.
///
/// A store is one transaction (under an advisory lock, so instances store one after another): readers go on with
/// the previous index until it commits. A read is one snapshot (repeatable read), one query per array, whose rows
/// arrive in PostgreSQL's binary format and are copied straight into the array's storage.
extension PostGISFlyerStore {
    /// Seconds a read, store or comparison of the whole index may take.
    private static let indexDeadline = 600.0

    /// The stored index, checked against its meta row and checksums, for a grid of `cellSize`.
    func storedIndex(cellSize: Double) async throws(FlyerStoreError) -> PersistedFlyerIndex.Found {
        let (client, logger) = (self.client, self.logger)
        return try await perform(deadline: Self.indexDeadline) { () async throws -> PersistedFlyerIndex.Found in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
                guard let metaData = try await Self.metaRow(connection, logger: logger) else { return .none }
                let meta: PersistedFlyerIndex.Meta
                switch PersistedFlyerIndex.acceptedMeta(metaData, cellSize: cellSize) {
                case .success(let accepted): meta = accepted
                case .failure(let rejection): return .rejected(rejection.reason)
                }
                var arrays = PackedIndexArrays()
                for (name, size) in meta.sizes.sorted(by: { $0.key < $1.key }) {
                    guard arrays.reserve(name, byteCount: size) else {
                        return .rejected("\(name) has a size that fits no array")
                    }
                    let range = PackedIndexImage.rowRange(meta.generation, array: name)
                    var offset = 0
                    for try await chunk in try await connection.query(
                        "SELECT data FROM flyer_search_index WHERE name > \(range.after) AND name < \(range.before) ORDER BY name",
                        logger: logger
                    ).decode(ByteBuffer.self) {
                        let end = offset + chunk.readableBytes
                        if end <= size {
                            arrays.withBytes(name) { storage in
                                chunk.withUnsafeReadableBytes {
                                    UnsafeMutableRawBufferPointer(rebasing: storage[offset..<end]).copyMemory(from: $0)
                                }
                            }
                        }
                        offset = end
                    }
                    guard offset == size else { return .rejected("\(name) holds \(offset) bytes, not \(size)") }
                }
                switch arrays.index(meta: meta, cellSize: cellSize) {
                case .success(let index): return .found(index, meta, nil)
                case .failure(let rejection): return .rejected(rejection.reason)
                }
            }
        }
    }

    /// Stores `index`, built at change `change`, in place of the stored one, in one transaction; with
    /// `onlyIfNewer`, nothing when a usable one built at the same change or later is stored (another instance stored
    /// it). True when it was stored.
    @discardableResult
    func saveIndex(_ index: PackedFlyerIndex, change: Int64, onlyIfNewer: Bool = false) async throws(FlyerStoreError)
        -> Bool
    {
        let (client, logger) = (self.client, self.logger)
        let image = PackedIndexImage(index)
        let generation = PackedIndexImage.newGeneration()
        let meta = image.meta(generation: generation, change: change)
        let cellSize = index.layout.cellSize
        return try await perform(deadline: Self.indexDeadline) { () async throws -> Bool in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostGISSchema.indexLock))", logger: logger)
                if onlyIfNewer, let data = try await Self.metaRow(connection, logger: logger),
                    case .success(let stored) = PersistedFlyerIndex.acceptedMeta(data, cellSize: cellSize),
                    stored.change >= change
                {
                    return false
                }
                try await connection.query("DELETE FROM flyer_search_index", logger: logger)
                for chunk in image.chunks(generation: generation, chunkBytes: PersistedFlyerIndex.chunkBytes) {
                    let bytes = image.withBytes(of: chunk) { ByteBuffer(bytes: $0) } ?? ByteBuffer()
                    try await connection.query(
                        "INSERT INTO flyer_search_index (name, data) VALUES (\(chunk.row), \(bytes))", logger: logger)
                }
                let metaBytes = ByteBuffer(bytes: try JSONEncoder().encode(meta))
                try await connection.query(
                    "INSERT INTO flyer_search_index (name, data) VALUES ('meta', \(metaBytes))", logger: logger)
                return true
            }
        }
    }

    /// A packed index of every stored flyer, with the change it holds at least (changes logged after it may be
    /// in it too: applying them again changes nothing).
    func buildIndex(cellSize: Double) async throws(FlyerStoreError) -> (index: PackedFlyerIndex, change: Int64) {
        let change = try await lastChange()
        var builder = PackedIndexBuilder(cellSize: cellSize)
        try await forEach { builder.add($0) }
        return (builder.build(), change)
    }

    /// How many flyers the table and `index` disagree on (`IndexAgreement`), leaving out `known` and those the change
    /// log names after change `change`; nil when the log no longer reaches back to it. One snapshot.
    func differences(from index: PackedFlyerIndex, excluding known: Set<String>, loggedAfter change: Int64)
        async throws(FlyerStoreError) -> Int?
    {
        let (client, logger) = (self.client, self.logger)
        return try await perform(deadline: Self.indexDeadline) { () async throws -> Int? in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
                guard let logged = try await Self.changes(after: change, on: connection, logger: logger).ids else {
                    return nil
                }
                var agreement = IndexAgreement(index, changed: known.union(logged))
                for try await row in try await connection.query(
                    "SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers", logger: logger)
                {
                    agreement.visit(try PostGISRows.flyer(row))
                }
                return agreement.differences
            }
        }
    }

    /// The meta row's bytes, if there is one.
    private static func metaRow(_ connection: PostgresConnection, logger: Logger) async throws -> Data? {
        var found: Data?
        for try await data in try await connection.query(
            "SELECT data FROM flyer_search_index WHERE name = 'meta'", logger: logger
        ).decode(ByteBuffer.self) {
            found = Data(data.readableBytesView)
        }
        return found
    }
}
