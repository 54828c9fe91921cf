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
    static let format = 4
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
        var areaStarts: [UInt32] = [0], areaBytes: [UInt8] = [], wkb: [UInt8] = []
        for geometry in index.areaGeometries {
            WKB.encode(geometry, into: &wkb)
            areaBytes += wkb
            areaStarts.append(UInt32(areaBytes.count))
        }
        /// Calls `body` with each array's name and bytes.
        func arrays(_ body: (String, UnsafeRawBufferPointer) throws -> Void) throws {
            func visit<T>(_ name: String, _ array: [T]) throws { try array.withUnsafeBytes { try body(name, $0) } }
            try visit("slots", index.slots)
            try visit("id_starts", index.ids.starts)
            try visit("id_bytes", index.ids.bytes)
            try visit("text_starts", index.texts.starts)
            try visit("text_bytes", index.texts.bytes)
            try visit("validities", index.validities)
            try visit("by_id", index.byID)
            try visit("category_starts", index.categories.starts)
            try visit("category_bytes", index.categories.bytes)
            try visit("cell_keys", index.cellKeys)
            try visit("cell_point_start", index.cellPointStart)
            try visit("cell_boxes", index.cellBoxes)
            try visit("cell_first_part", index.cellFirstPart)
            try visit("part_start", index.partStart)
            try visit("part_boxes", index.partBoxes)
            try visit("cell_area_start", index.cellAreaStart)
            try visit("cell_areas", index.cellAreas)
            try visit("large_areas", index.largeAreas)
            try visit("area_starts", areaStarts)
            try visit("area_wkb", areaBytes)
        }
        try deleteRows(database) { db in try unusedRows(db) }
        let generation = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        var checksums: [String: String] = [:], sizes: [String: Int] = [:]
        try arrays { name, bytes in
            checksums[name] = String(Checksum.of(bytes), radix: 16)
            sizes[name] = bytes.count
            for (number, start) in stride(from: 0, to: max(bytes.count, 1), by: chunkBytes).enumerated() {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + chunkBytes, bytes.count)])
                let data =
                    chunk.baseAddress.map {
                        Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: chunk.count, deallocator: .none)
                    } ?? Data()
                try database.write { db in
                    try db.execute(
                        sql: "INSERT INTO flyer_search_index (name, data) VALUES (?, ?)",
                        arguments: [rowName(generation, name, number), data])
                }
                try afterChunk()
            }
        }
        let meta = Meta(
            format: format, generation: generation, cellSize: index.layout.cellSize, change: change,
            flyers: index.count,
            slotStride: MemoryLayout<PackedSlot>.stride, boxStride: MemoryLayout<SpaceBox>.stride,
            checksums: checksums, sizes: sizes)
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO flyer_search_index (name, data) VALUES ('meta', ?)",
                arguments: [try JSONEncoder().encode(meta)])
        }
        try deleteRows(database) { db in try unusedRows(db) }
    }

    /// The name of chunk `number` of array `array` in generation `generation` (names sort by array, then chunk).
    private static func rowName(_ generation: String, _ array: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(generation)/\(array)/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The array rows no meta row names: a previous generation, or a save cut short.
    private static func unusedRows(_ db: Database) throws -> [String] {
        let generation = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'")
            .flatMap { try? JSONDecoder().decode(Meta.self, from: $0) }?.generation
        return try String.fetchAll(db, sql: "SELECT name FROM flyer_search_index WHERE name NOT IN ('meta', 'changed')")
            .filter { name in generation.map { !name.hasPrefix($0 + "/") } ?? true }
    }

    /// Deletes the rows `names` lists, one per transaction (a row may hold megabytes).
    private static func deleteRows(_ database: any DatabaseWriter, _ names: (Database) throws -> [String]) throws {
        for name in try database.read(names) {
            try database.write { db in
                try db.execute(sql: "DELETE FROM flyer_search_index WHERE name = ?", arguments: [name])
            }
        }
    }

    /// The stored index, checked against its meta row and checksums, for a grid of `cellSize`.
    static func load(from db: Database, cellSize: Double) throws -> Found {
        guard let metaData = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'")
        else { return .none }
        guard let meta = try? JSONDecoder().decode(Meta.self, from: metaData) else {
            let otherFormat =
                (try? JSONDecoder().decode(Layout.self, from: metaData)).map { $0.format != format } ?? false
            return .rejected(otherFormat ? "it was written in another layout" : "its description cannot be read")
        }
        guard meta.format == format, meta.cellSize == cellSize, meta.slotStride == MemoryLayout<PackedSlot>.stride,
            meta.boxStride == MemoryLayout<SpaceBox>.stride
        else { return .rejected("it was written in another layout") }
        // The generation's rows, by array and chunk: rows after "<generation>/" and before "<generation>0" ('0' follows '/').
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT rowid, name, length(data) FROM flyer_search_index WHERE name > ? AND name < ? ORDER BY name",
            arguments: [meta.generation + "/", meta.generation + "0"])
        var chunks: [(name: String, rows: [(rowid: Int64, bytes: Int)])] = []
        for row in rows {
            let parts = (row[1] as String).split(separator: "/")
            guard parts.count == 3 else { return .rejected("row \(row[1] as String) is not named as a chunk") }
            let name = String(parts[1])
            if chunks.last?.name != name { chunks.append((name, [])) }
            chunks[chunks.count - 1].rows.append((row[0], row[2]))
        }
        // Each array is read straight into its own storage, chunk after chunk (no copy of the whole blob first).
        var arrays = Arrays()
        for (name, parts) in chunks {
            let byteCount = parts.reduce(0) { $0 + $1.bytes }
            guard meta.sizes[name] == byteCount else {
                return .rejected("\(name) holds \(byteCount) bytes, not \(meta.sizes[name] ?? 0)")
            }
            let checksum = try arrays.read(name, byteCount: byteCount) { buffer in
                var offset = 0
                for part in parts {
                    try StoredBlob.read(
                        db, table: "flyer_search_index", rowid: part.rowid,
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + part.bytes]))
                    offset += part.bytes
                }
            }
            guard let checksum else { return .rejected("\(name) has a size that fits no array") }
            if meta.checksums[name] != String(checksum, radix: 16) {
                return .rejected("the checksum of \(name) does not match")
            }
        }
        guard arrays.names == Set(meta.checksums.keys), arrays.names.count == meta.checksums.count else {
            return .rejected("arrays are missing")
        }
        let changed = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'changed'")
            .flatMap { try? JSONDecoder().decode(Changed.self, from: $0) }
        do {
            let index = try arrays.index(cellSize: cellSize)
            guard index.count == meta.flyers else {
                return .rejected("it holds \(index.count) flyers, not \(meta.flyers)")
            }
            return .found(index, meta, changed?.base == meta.change ? changed : nil)
        } catch {
            return .rejected("\(error)")
        }
    }

    /// Arrays as they are read.
    private struct Arrays {
        var names = Set<String>()
        var slots: [PackedSlot] = [], idStarts: [UInt32] = [], idBytes: [UInt8] = [], byID: [Int32] = []
        var textStarts: [UInt32] = [], textBytes: [UInt8] = [], validities: [PackedValidity] = []
        var categoryStarts: [UInt32] = [], categoryBytes: [UInt8] = [], cellKeys: [Int64] = [],
            cellPointStart: [Int32] = []
        var cellBoxes: [SpaceBox] = [], cellFirstPart: [Int32] = [], partStart: [Int32] = [], partBoxes: [SpaceBox] = []
        var cellAreaStart: [Int32] = [], cellAreas: [Int32] = [], largeAreas: [Int32] = [], areaStarts: [UInt32] = [],
            areaBytes: [UInt8] = []

        /// Reads array `name` of `byteCount` bytes, which `fill` writes into the array's storage, and returns
        /// their checksum; nil for an unknown name or a size that is no whole number of elements.
        mutating func read(_ name: String, byteCount: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void)
            throws -> UInt64?
        {
            func into<T>(_ array: WritableKeyPath<Arrays, [T]>) throws -> UInt64? {
                guard byteCount % MemoryLayout<T>.stride == 0 else { return nil }
                let count = byteCount / MemoryLayout<T>.stride
                var checksum: UInt64 = 0
                self[keyPath: array] = try [T](unsafeUninitializedCapacity: count) { buffer, initialised in
                    let bytes = UnsafeMutableRawBufferPointer(buffer)
                    try fill(bytes)
                    checksum = Checksum.of(UnsafeRawBufferPointer(bytes))
                    initialised = count
                }
                names.insert(name)
                return checksum
            }
            switch name {
            case "slots": return try into(\.slots)
            case "id_starts": return try into(\.idStarts)
            case "id_bytes": return try into(\.idBytes)
            case "text_starts": return try into(\.textStarts)
            case "text_bytes": return try into(\.textBytes)
            case "validities": return try into(\.validities)
            case "by_id": return try into(\.byID)
            case "category_starts": return try into(\.categoryStarts)
            case "category_bytes": return try into(\.categoryBytes)
            case "cell_keys": return try into(\.cellKeys)
            case "cell_point_start": return try into(\.cellPointStart)
            case "cell_boxes": return try into(\.cellBoxes)
            case "cell_first_part": return try into(\.cellFirstPart)
            case "part_start": return try into(\.partStart)
            case "part_boxes": return try into(\.partBoxes)
            case "cell_area_start": return try into(\.cellAreaStart)
            case "cell_areas": return try into(\.cellAreas)
            case "large_areas": return try into(\.largeAreas)
            case "area_starts": return try into(\.areaStarts)
            case "area_wkb": return try into(\.areaBytes)
            default: return nil
            }
        }

        func index(cellSize: Double) throws(PackedIndexError) -> PackedFlyerIndex {
            guard let ids = PackedStrings(starts: idStarts, bytes: idBytes) else { throw .malformed("id offsets") }
            guard let texts = PackedStrings(starts: textStarts, bytes: textBytes) else {
                throw .malformed("text offsets")
            }
            guard let categories = PackedStrings(starts: categoryStarts, bytes: categoryBytes) else {
                throw .malformed("category offsets")
            }
            guard let areas = PackedStrings(starts: areaStarts, bytes: areaBytes) else {
                throw .malformed("area offsets")
            }
            var geometries: [FlyerGeometry] = [], shapes: [AreaShape] = []
            for area in 0..<areas.count {
                guard let geometry = WKB.decode(Data(areas.bytes(area))), let shape = AreaShape(geometry.polygons)
                else {
                    throw .malformed("area \(area)")
                }
                geometries.append(geometry)
                shapes.append(shape)
            }
            return try PackedFlyerIndex.checked(
                cellSize: cellSize,
                .init(
                    slots: slots, ids: ids, texts: texts, validities: validities, byID: byID, categories: categories,
                    cellKeys: cellKeys, cellPointStart: cellPointStart,
                    cellBoxes: cellBoxes, cellFirstPart: cellFirstPart, partStart: partStart, partBoxes: partBoxes,
                    cellAreaStart: cellAreaStart, cellAreas: cellAreas, largeAreas: largeAreas,
                    areaGeometries: geometries, areaShapes: shapes))
        }
    }
}
