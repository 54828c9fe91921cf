import Foundation
import GRDB

/// The packed search index stored in the database (`flyer_search_index`: one row per array, the
/// bytes as they are in memory, and a `meta` row), so that the service reads it in bulk at start
/// instead of building it from every flyer.
///
/// The meta row names the change-log entry the index was built at, the layout it was written with,
/// and a checksum of every array. A reader uses it only when all of them fit; then the change log
/// since that entry brings it up to date, and `FlyerRepository.verify` compares it with the flyer
/// table in the background (a write that bypassed the change log shows there).
enum PersistedFlyerIndex {
    /// Bumped whenever the layout of the arrays changes.
    static let format = 3

    struct Meta: Codable, Equatable {
        var format: Int
        var cellSize: Double
        /// The latest change-log entry the index holds.
        var change: Int64
        var flyers: Int
        var slotStride: Int
        var boxStride: Int
        /// Per array, its checksum in hexadecimal.
        var checksums: [String: String]
    }

    /// What the database holds, and whether it can be used.
    enum Found {
        case none
        case rejected(String)
        case found(PackedFlyerIndex, Meta)
    }

    /// Replaces the stored index with `index`, built at change `change`.
    static func save(_ index: PackedFlyerIndex, change: Int64, in db: Database) throws {
        var sections: [(String, [UInt8])] = []
        func add<T>(_ name: String, _ array: [T]) { sections.append((name, array.withUnsafeBytes { Array($0) })) }
        add("slots", index.slots)
        add("id_starts", index.ids.starts)
        add("id_bytes", index.ids.bytes)
        add("text_starts", index.texts.starts)
        add("text_bytes", index.texts.bytes)
        add("validities", index.validities)
        add("by_id", index.byID)
        add("category_starts", index.categories.starts)
        add("category_bytes", index.categories.bytes)
        add("cell_keys", index.cellKeys)
        add("cell_point_start", index.cellPointStart)
        add("cell_boxes", index.cellBoxes)
        add("cell_first_part", index.cellFirstPart)
        add("part_start", index.partStart)
        add("part_boxes", index.partBoxes)
        add("cell_area_start", index.cellAreaStart)
        add("cell_areas", index.cellAreas)
        add("large_areas", index.largeAreas)
        var areaStarts: [UInt32] = [0], areaBytes: [UInt8] = [], wkb: [UInt8] = []
        for geometry in index.areaGeometries {
            WKB.encode(geometry, into: &wkb)
            areaBytes += wkb
            areaStarts.append(UInt32(areaBytes.count))
        }
        add("area_starts", areaStarts)
        add("area_wkb", areaBytes)
        var checksums: [String: String] = [:]
        for (name, bytes) in sections { checksums[name] = String(bytes.withUnsafeBytes(Checksum.of), radix: 16) }
        let meta = Meta(format: format, cellSize: index.layout.cellSize, change: change, flyers: index.count,
                        slotStride: MemoryLayout<PackedSlot>.stride, boxStride: MemoryLayout<SpaceBox>.stride, checksums: checksums)
        try db.execute(sql: "DELETE FROM flyer_search_index")
        let insert = try db.makeStatement(sql: "INSERT INTO flyer_search_index (name, data) VALUES (?, ?)")
        try insert.execute(arguments: ["meta", try JSONEncoder().encode(meta)])
        for (name, bytes) in sections { try insert.execute(arguments: [name, Data(bytes)]) }
    }

    /// The stored index, checked against its meta row and checksums, for a grid of `cellSize`.
    static func load(from db: Database, cellSize: Double) throws -> Found {
        guard let metaData = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'") else { return .none }
        guard let meta = try? JSONDecoder().decode(Meta.self, from: metaData) else { return .rejected("its description cannot be read") }
        guard meta.format == format, meta.cellSize == cellSize, meta.slotStride == MemoryLayout<PackedSlot>.stride,
              meta.boxStride == MemoryLayout<SpaceBox>.stride
        else { return .rejected("it was written in another layout") }
        var arrays = Arrays()
        // Each array is read straight into its own storage (no copy of the whole blob first).
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, name, length(data) FROM flyer_search_index WHERE name <> 'meta'")
        var problem: String?
        for row in rows where problem == nil {
            let rowid: Int64 = row[0], name: String = row[1], byteCount: Int = row[2]
            guard let checksum = try arrays.read(name, byteCount: byteCount, { try StoredBlob.read(db, table: "flyer_search_index", rowid: rowid, into: $0) }) else {
                problem = "\(name) has a size that fits no array"
                break
            }
            if meta.checksums[name] != String(checksum, radix: 16) { problem = "the checksum of \(name) does not match" }
        }
        if let problem { return .rejected(problem) }
        guard arrays.names == Set(meta.checksums.keys), arrays.names.count == meta.checksums.count else { return .rejected("arrays are missing") }
        do {
            let index = try arrays.index(cellSize: cellSize)
            guard index.count == meta.flyers else { return .rejected("it holds \(index.count) flyers, not \(meta.flyers)") }
            return .found(index, meta)
        } catch {
            return .rejected("\(error)")
        }
    }

    /// Arrays as they are read.
    private struct Arrays {
        var names = Set<String>()
        var slots: [PackedSlot] = [], idStarts: [UInt32] = [], idBytes: [UInt8] = [], byID: [Int32] = []
        var textStarts: [UInt32] = [], textBytes: [UInt8] = [], validities: [PackedValidity] = []
        var categoryStarts: [UInt32] = [], categoryBytes: [UInt8] = [], cellKeys: [Int64] = [], cellPointStart: [Int32] = []
        var cellBoxes: [SpaceBox] = [], cellFirstPart: [Int32] = [], partStart: [Int32] = [], partBoxes: [SpaceBox] = []
        var cellAreaStart: [Int32] = [], cellAreas: [Int32] = [], largeAreas: [Int32] = [], areaStarts: [UInt32] = [], areaBytes: [UInt8] = []

        /// Reads array `name` of `byteCount` bytes, which `fill` writes into the array's storage, and returns
        /// their checksum; nil for an unknown name or a size that is no whole number of elements.
        mutating func read(_ name: String, byteCount: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws -> UInt64? {
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
            guard let texts = PackedStrings(starts: textStarts, bytes: textBytes) else { throw .malformed("text offsets") }
            guard let categories = PackedStrings(starts: categoryStarts, bytes: categoryBytes) else { throw .malformed("category offsets") }
            guard let areas = PackedStrings(starts: areaStarts, bytes: areaBytes) else { throw .malformed("area offsets") }
            var geometries: [FlyerGeometry] = [], shapes: [AreaShape] = []
            for area in 0..<areas.count {
                guard let geometry = WKB.decode(Data(areas.bytes(area))), let shape = AreaShape(geometry.polygons) else {
                    throw .malformed("area \(area)")
                }
                geometries.append(geometry)
                shapes.append(shape)
            }
            return try PackedFlyerIndex.checked(cellSize: cellSize, .init(
                slots: slots, ids: ids, texts: texts, validities: validities, byID: byID, categories: categories, cellKeys: cellKeys, cellPointStart: cellPointStart,
                cellBoxes: cellBoxes, cellFirstPart: cellFirstPart, partStart: partStart, partBoxes: partBoxes,
                cellAreaStart: cellAreaStart, cellAreas: cellAreas, largeAreas: largeAreas, areaGeometries: geometries, areaShapes: shapes))
        }
    }
}
