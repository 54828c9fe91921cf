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
    static let format = 2

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
        let rows = try Row.fetchCursor(db, sql: "SELECT name, data FROM flyer_search_index WHERE name <> 'meta'")
        var problem: String?
        while let row = try rows.next(), problem == nil {
            let name: String = row[0]
            try row.withUnsafeData(atIndex: 1) { data in
                guard let data else { problem = "\(name) is empty"; return }
                data.withUnsafeBytes { bytes in
                    guard meta.checksums[name] == String(Checksum.of(bytes), radix: 16) else { problem = "the checksum of \(name) does not match"; return }
                    if !arrays.take(name, bytes) { problem = "\(name) has a size that fits no array" }
                }
            }
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
        var textStarts: [UInt32] = [], textBytes: [UInt8] = []
        var categoryStarts: [UInt32] = [], categoryBytes: [UInt8] = [], cellKeys: [Int64] = [], cellPointStart: [Int32] = []
        var cellBoxes: [SpaceBox] = [], cellFirstPart: [Int32] = [], partStart: [Int32] = [], partBoxes: [SpaceBox] = []
        var cellAreaStart: [Int32] = [], cellAreas: [Int32] = [], largeAreas: [Int32] = [], areaStarts: [UInt32] = [], areaBytes: [UInt8] = []

        /// Copies `bytes` into the array `name`; false for an unknown name or a size that is no whole number of elements.
        mutating func take(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
            func copy<T>(_ type: T.Type) -> [T]? {
                guard bytes.count % MemoryLayout<T>.stride == 0 else { return nil }
                let count = bytes.count / MemoryLayout<T>.stride
                return [T](unsafeUninitializedCapacity: count) { buffer, initialised in
                    if count > 0 { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes) }
                    initialised = count
                }
            }
            names.insert(name)
            switch name {
            case "slots": return copy(PackedSlot.self).map { slots = $0 } != nil
            case "id_starts": return copy(UInt32.self).map { idStarts = $0 } != nil
            case "id_bytes": return copy(UInt8.self).map { idBytes = $0 } != nil
            case "text_starts": return copy(UInt32.self).map { textStarts = $0 } != nil
            case "text_bytes": return copy(UInt8.self).map { textBytes = $0 } != nil
            case "by_id": return copy(Int32.self).map { byID = $0 } != nil
            case "category_starts": return copy(UInt32.self).map { categoryStarts = $0 } != nil
            case "category_bytes": return copy(UInt8.self).map { categoryBytes = $0 } != nil
            case "cell_keys": return copy(Int64.self).map { cellKeys = $0 } != nil
            case "cell_point_start": return copy(Int32.self).map { cellPointStart = $0 } != nil
            case "cell_boxes": return copy(SpaceBox.self).map { cellBoxes = $0 } != nil
            case "cell_first_part": return copy(Int32.self).map { cellFirstPart = $0 } != nil
            case "part_start": return copy(Int32.self).map { partStart = $0 } != nil
            case "part_boxes": return copy(SpaceBox.self).map { partBoxes = $0 } != nil
            case "cell_area_start": return copy(Int32.self).map { cellAreaStart = $0 } != nil
            case "cell_areas": return copy(Int32.self).map { cellAreas = $0 } != nil
            case "large_areas": return copy(Int32.self).map { largeAreas = $0 } != nil
            case "area_starts": return copy(UInt32.self).map { areaStarts = $0 } != nil
            case "area_wkb": return copy(UInt8.self).map { areaBytes = $0 } != nil
            default: return false
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
                slots: slots, ids: ids, texts: texts, byID: byID, categories: categories, cellKeys: cellKeys, cellPointStart: cellPointStart,
                cellBoxes: cellBoxes, cellFirstPart: cellFirstPart, partStart: partStart, partBoxes: partBoxes,
                cellAreaStart: cellAreaStart, cellAreas: cellAreas, largeAreas: largeAreas, areaGeometries: geometries, areaShapes: shapes))
        }
    }
}
