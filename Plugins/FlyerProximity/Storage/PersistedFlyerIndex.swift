import Foundation
import GRDB

/// The packed search index stored in the database (`flyer_search_index`: each array's bytes as they are in
/// memory, in rows of at most `chunkBytes` named `<generation>/<array>/<chunk>`, and a `meta` row), so that the
/// service reads it in bulk at start instead of building it from every flyer.
///
/// Storing writes one chunk per transaction, so a writer waits for one chunk at most, and writes the meta row
/// last: until then readers use the previous generation, and a save cut short leaves only rows no meta row names
/// (deleted by the next save). The meta row names the generation, the change-log entry the index was built at,
/// the layout it was written with, and each array's size and checksum. A reader uses it only when all of them
/// fit; then the flyers changed
/// since (the `changed` row's ids, and the change log after it) bring it up to date, and
/// `SpatiaLiteFlyerStore.differences` compares it with the flyer table in the background (a write that
/// bypassed the change log shows there).
enum PersistedFlyerIndex {
    /// Bumped whenever the layout of the arrays or of their rows changes.
    static let format = 6
    /// The most bytes of an array stored in one row (and written in one transaction).
    static let chunkBytes = 4 << 20

    /// The part of the meta row every format has.
    private struct Layout: Codable {
        var format: Int
    }

    struct Meta: Codable, Equatable {
        var format: Int
        /// The prefix of the rows that hold this index's arrays.
        var generation: String
        var cellSize: Double
        /// The latest change-log entry the index holds.
        var change: Int64
        var flyers: Int
        var slotStride: Int
        var boxStride: Int
        /// Per array, its checksum in hexadecimal.
        var checksums: [String: String]
        /// Per array, its size in bytes.
        var sizes: [String: Int]
    }

    /// The flyers changed since the stored index was built (the `changed` row): stored in place of the whole
    /// index as changes pile up, so that the change log need not reach back to the index at the next start.
    struct Changed: Codable, Equatable {
        /// The change the stored index was built at (the row is used only with that index).
        var base: Int64
        /// The latest change-log entry `ids` cover.
        var change: Int64
        /// Every flyer written or deleted after `base` up to `change`.
        var ids: [String]
    }

    /// What the database holds, and whether it can be used.
    enum Found {
        case none
        case rejected(String)
        /// The index, its meta row, and the flyers changed since it was built when they were stored.
        case found(PackedFlyerIndex, Meta, Changed?)
    }

    /// Stores which flyers changed since the stored index was built (one small row; the index stays as it is).
    static func save(_ changed: Changed, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO flyer_search_index (name, data) VALUES ('changed', ?)",
            arguments: [try JSONEncoder().encode(changed)])
    }

    /// Replaces the stored index with `index`, built at change `change`: each array in rows of at most `chunkBytes`,
    /// one row per transaction of `database`, bound straight from the array's memory, then the meta row, then the
    /// previous generation's rows are deleted (one per transaction). `afterChunk` runs after each chunk's transaction.
    static func save(
        _ index: PackedFlyerIndex, change: Int64, to database: any DatabaseWriter,
        chunkBytes: Int = Self.chunkBytes, afterChunk: () throws -> Void = {}
    ) throws {
        let image = PackedIndexImage(index)
        try deleteRows(database) { db in try unusedRows(db) }
        let generation = PackedIndexImage.newGeneration()
        for chunk in image.chunks(generation: generation, chunkBytes: chunkBytes) {
            try image.withBytes(of: chunk) { bytes in
                let data =
                    bytes.baseAddress.map {
                        Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count, deallocator: .none)
                    } ?? Data()
                try database.write { db in
                    try db.execute(
                        sql: "INSERT INTO flyer_search_index (name, data) VALUES (?, ?)", arguments: [chunk.row, data])
                }
            }
            try afterChunk()
        }
        let meta = image.meta(generation: generation, change: change)
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO flyer_search_index (name, data) VALUES ('meta', ?)",
                arguments: [try JSONEncoder().encode(meta)])
        }
        try deleteRows(database) { db in try unusedRows(db) }
    }

    /// The array rows no meta row names: a previous generation, or a save cut short.
    private static func unusedRows(_ db: Database) throws -> [String] {
        let generation = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'")
            .flatMap { try? JSONDecoder().decode(Meta.self, from: $0) }?.generation
        let names = try String.fetchAll(
            db, sql: "SELECT name FROM flyer_search_index WHERE name NOT IN ('meta', 'changed', ?)",
            arguments: [ChangeLogProof.rowName])
        return names.filter { name in generation.map { !name.hasPrefix($0 + "/") } ?? true }
    }

    /// Deletes the rows `names` lists, one per transaction (a row may hold megabytes).
    private static func deleteRows(_ database: any DatabaseWriter, _ names: (Database) throws -> [String]) throws {
        for name in try database.read(names) {
            try database.write { db in
                try db.execute(sql: "DELETE FROM flyer_search_index WHERE name = ?", arguments: [name])
            }
        }
    }

    /// The meta row `data` when an index of this format and a grid of `cellSize` can use it, else why not.
    static func acceptedMeta(_ data: Data, cellSize: Double) -> Result<Meta, PackedIndexArrays.Rejection> {
        guard let meta = try? JSONDecoder().decode(Meta.self, from: data) else {
            let otherFormat = (try? JSONDecoder().decode(Layout.self, from: data)).map { $0.format != format } ?? false
            return .failure(.init(otherFormat ? "it was written in another layout" : "its description cannot be read"))
        }
        guard meta.format == format, meta.cellSize == cellSize, meta.slotStride == MemoryLayout<PackedSlot>.stride,
            meta.boxStride == MemoryLayout<PackedBox>.stride
        else { return .failure(.init("it was written in another layout")) }
        return .success(meta)
    }

    /// The stored index, checked against its meta row and checksums, for a grid of `cellSize`.
    static func load(from db: Database, cellSize: Double) throws -> Found {
        guard let metaData = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'")
        else { return .none }
        let meta: Meta
        switch acceptedMeta(metaData, cellSize: cellSize) {
        case .success(let accepted): meta = accepted
        case .failure(let rejection): return .rejected(rejection.reason)
        }
        let range = PackedIndexImage.rowRange(meta.generation)
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT rowid, name, length(data) FROM flyer_search_index WHERE name > ? AND name < ? ORDER BY name",
            arguments: [range.after, range.before])
        var chunks: [(name: String, rows: [(rowid: Int64, bytes: Int)])] = []
        for row in rows {
            let parts = (row[1] as String).split(separator: "/")
            guard parts.count == 3 else { return .rejected("row \(row[1] as String) is not named as a chunk") }
            let name = String(parts[1])
            if chunks.last?.name != name { chunks.append((name, [])) }
            chunks[chunks.count - 1].rows.append((row[0], row[2]))
        }
        // Each array is read straight into its own storage, chunk after chunk (no copy of the whole blob first).
        var arrays = PackedIndexArrays()
        for (name, parts) in chunks {
            let byteCount = parts.reduce(0) { $0 + $1.bytes }
            guard meta.sizes[name] == byteCount else {
                return .rejected("\(name) holds \(byteCount) bytes, not \(meta.sizes[name] ?? 0)")
            }
            guard arrays.reserve(name, byteCount: byteCount) else {
                return .rejected("\(name) has a size that fits no array")
            }
            try arrays.withBytes(name) { buffer in
                var offset = 0
                for part in parts {
                    try StoredBlob.read(
                        db, table: "flyer_search_index", rowid: part.rowid,
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + part.bytes]))
                    offset += part.bytes
                }
            }
        }
        let changed = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'changed'")
            .flatMap { try? JSONDecoder().decode(Changed.self, from: $0) }
        switch arrays.index(meta: meta, cellSize: cellSize) {
        case .success(let index): return .found(index, meta, changed?.base == meta.change ? changed : nil)
        case .failure(let rejection): return .rejected(rejection.reason)
        }
    }
}
