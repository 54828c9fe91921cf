import Foundation

/// The packed search index as the stores keep it (`PersistedFlyerIndex`, the same for SpatiaLite and PostGIS): each
/// array's bytes as they are in memory, the areas as WKB, cut into rows of at most `chunkBytes` named
/// `<generation>/<array>/<chunk>`, described by a meta row (`PersistedFlyerIndex.Meta`).
struct PackedIndexImage {
    let index: PackedFlyerIndex
    /// The areas as WKB, one after the other, and where each starts (one more than there are areas).
    private let areaStarts: [UInt32]
    private let areaBytes: [UInt8]

    /// One row of the stored index: a piece of one array.
    struct Chunk {
        var row: String
        var array: String
        var bytes: Range<Int>
    }

    init(_ index: PackedFlyerIndex) {
        self.index = index
        var starts: [UInt32] = [0], bytes: [UInt8] = [], wkb: [UInt8] = []
        for geometry in index.areaGeometries {
            WKB.encode(geometry, into: &wkb)
            bytes += wkb
            starts.append(UInt32(bytes.count))
        }
        areaStarts = starts
        areaBytes = bytes
    }

    /// Calls `body` with each array's name and bytes.
    func eachArray(_ body: (String, UnsafeRawBufferPointer) throws -> Void) rethrows {
        func visit<T>(_ name: String, _ array: [T]) throws { try array.withUnsafeBytes { try body(name, $0) } }
        try visit("slots", index.slots)
        try visit("anchors", index.anchors)
        try visit("id_starts", index.ids.starts)
        try visit("id_bytes", index.ids.bytes)
        try visit("text_starts", index.texts.starts)
        try visit("text_bytes", index.texts.bytes)
        try visit("text_symbols", index.textSymbols.symbols)
        try visit("text_symbol_lengths", index.textSymbols.lengths)
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

    /// The meta row of this index stored as `generation`, built at change `change`.
    func meta(generation: String, change: Int64) -> PersistedFlyerIndex.Meta {
        var checksums: [String: String] = [:], sizes: [String: Int] = [:]
        eachArray { name, bytes in
            checksums[name] = String(Checksum.of(bytes), radix: 16)
            sizes[name] = bytes.count
        }
        return PersistedFlyerIndex.Meta(
            format: PersistedFlyerIndex.format, generation: generation, cellSize: index.layout.cellSize,
            change: change, flyers: index.count,
            slotStride: MemoryLayout<PackedSlot>.stride, boxStride: MemoryLayout<PackedBox>.stride,
            checksums: checksums, sizes: sizes)
    }

    /// The rows of generation `generation`, each at most `chunkBytes` long (an empty array has one empty row).
    func chunks(generation: String, chunkBytes: Int) -> [Chunk] {
        var chunks: [Chunk] = []
        eachArray { name, bytes in
            for (number, start) in stride(from: 0, to: max(bytes.count, 1), by: chunkBytes).enumerated() {
                chunks.append(
                    Chunk(
                        row: Self.rowName(generation, name, number), array: name,
                        bytes: start..<min(start + chunkBytes, bytes.count)))
            }
        }
        return chunks
    }

    /// Calls `body` with the bytes of `chunk`, straight from the array's memory.
    func withBytes<R>(of chunk: Chunk, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        var result: R?
        try eachArray { name, bytes in
            guard name == chunk.array else { return }
            result = try body(UnsafeRawBufferPointer(rebasing: bytes[chunk.bytes]))
        }
        return result
    }

    /// A new generation's name.
    static func newGeneration() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 16)
    }

    /// The name of chunk `number` of array `array` in generation `generation` (names sort by array, then chunk).
    static func rowName(_ generation: String, _ array: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(generation)/\(array)/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The bounds of the names of `generation`'s rows (of one array when `array` is given): every name that
    /// sorts after the first and before the second ('0' follows '/').
    static func rowRange(_ generation: String, array: String? = nil) -> (after: String, before: String) {
        let prefix = array.map { "\(generation)/\($0)" } ?? generation
        return (prefix + "/", prefix + "0")
    }
}

/// The arrays of a stored index as they are read back: each sized from the meta row, filled in place (chunk after
/// chunk, no copy of a whole array first), then checked against the meta row and made an index (`index(meta:)`).
struct PackedIndexArrays {
    private(set) var names = Set<String>()
    var slots: [PackedSlot] = [], anchors: [PackedAnchor] = [], idStarts: [UInt32] = [], idBytes: [UInt8] = [],
        byID: [Int32] = []
    var textStarts: [UInt32] = [], textBytes: [UInt8] = [], textSymbols: [UInt64] = [], textSymbolLengths: [UInt8] = []
    var validities: [PackedValidity] = []
    var categoryStarts: [UInt32] = [], categoryBytes: [UInt8] = [], cellKeys: [Int64] = [], cellPointStart: [Int32] = []
    var cellBoxes: [PackedBox] = [], cellFirstPart: [Int32] = [], partStart: [Int32] = [], partBoxes: [PackedBox] = []
    var cellAreaStart: [Int32] = [], cellAreas: [Int32] = [], largeAreas: [Int32] = [], areaStarts: [UInt32] = []
    var areaBytes: [UInt8] = []

    /// Makes array `name` `byteCount` bytes long (its contents are then written with `withBytes`); false for an
    /// unknown name or a size that is no whole number of elements.
    mutating func reserve(_ name: String, byteCount: Int) -> Bool {
        func sized<T: BitwiseCopyable>(_ array: WritableKeyPath<Self, [T]>) -> Bool {
            guard byteCount % MemoryLayout<T>.stride == 0 else { return false }
            let count = byteCount / MemoryLayout<T>.stride
            // Every element is plain bytes that the reader writes before anything reads them.
            self[keyPath: array] = [T](unsafeUninitializedCapacity: count) { _, initialised in initialised = count }
            return true
        }
        let reserved: Bool
        switch name {
        case "slots": reserved = sized(\.slots)
        case "anchors": reserved = sized(\.anchors)
        case "id_starts": reserved = sized(\.idStarts)
        case "id_bytes": reserved = sized(\.idBytes)
        case "text_starts": reserved = sized(\.textStarts)
        case "text_bytes": reserved = sized(\.textBytes)
        case "text_symbols": reserved = sized(\.textSymbols)
        case "text_symbol_lengths": reserved = sized(\.textSymbolLengths)
        case "validities": reserved = sized(\.validities)
        case "by_id": reserved = sized(\.byID)
        case "category_starts": reserved = sized(\.categoryStarts)
        case "category_bytes": reserved = sized(\.categoryBytes)
        case "cell_keys": reserved = sized(\.cellKeys)
        case "cell_point_start": reserved = sized(\.cellPointStart)
        case "cell_boxes": reserved = sized(\.cellBoxes)
        case "cell_first_part": reserved = sized(\.cellFirstPart)
        case "part_start": reserved = sized(\.partStart)
        case "part_boxes": reserved = sized(\.partBoxes)
        case "cell_area_start": reserved = sized(\.cellAreaStart)
        case "cell_areas": reserved = sized(\.cellAreas)
        case "large_areas": reserved = sized(\.largeAreas)
        case "area_starts": reserved = sized(\.areaStarts)
        case "area_wkb": reserved = sized(\.areaBytes)
        default: reserved = false
        }
        if reserved { names.insert(name) }
        return reserved
    }

    /// Calls `body` with the storage of array `name` (as `reserve` sized it); nil for an array not reserved.
    mutating func withBytes<R>(_ name: String, _ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R? {
        guard names.contains(name) else { return nil }
        func bytes<T>(_ array: WritableKeyPath<Self, [T]>) throws -> R {
            try self[keyPath: array].withUnsafeMutableBytes(body)
        }
        switch name {
        case "slots": return try bytes(\.slots)
        case "anchors": return try bytes(\.anchors)
        case "id_starts": return try bytes(\.idStarts)
        case "id_bytes": return try bytes(\.idBytes)
        case "text_starts": return try bytes(\.textStarts)
        case "text_bytes": return try bytes(\.textBytes)
        case "text_symbols": return try bytes(\.textSymbols)
        case "text_symbol_lengths": return try bytes(\.textSymbolLengths)
        case "validities": return try bytes(\.validities)
        case "by_id": return try bytes(\.byID)
        case "category_starts": return try bytes(\.categoryStarts)
        case "category_bytes": return try bytes(\.categoryBytes)
        case "cell_keys": return try bytes(\.cellKeys)
        case "cell_point_start": return try bytes(\.cellPointStart)
        case "cell_boxes": return try bytes(\.cellBoxes)
        case "cell_first_part": return try bytes(\.cellFirstPart)
        case "part_start": return try bytes(\.partStart)
        case "part_boxes": return try bytes(\.partBoxes)
        case "cell_area_start": return try bytes(\.cellAreaStart)
        case "cell_areas": return try bytes(\.cellAreas)
        case "large_areas": return try bytes(\.largeAreas)
        case "area_starts": return try bytes(\.areaStarts)
        case "area_wkb": return try bytes(\.areaBytes)
        default: return nil
        }
    }

    /// The index the arrays make when every array the meta row names was read and matches its checksum, else why not.
    mutating func index(meta: PersistedFlyerIndex.Meta, cellSize: Double) -> Result<PackedFlyerIndex, Rejection> {
        guard names == Set(meta.checksums.keys) else { return .failure(Rejection("arrays are missing")) }
        for name in names.sorted() {
            let checksum = withBytes(name) { Checksum.of(UnsafeRawBufferPointer($0)) }
            guard meta.checksums[name] == checksum.map({ String($0, radix: 16) }) else {
                return .failure(Rejection("the checksum of \(name) does not match"))
            }
        }
        do {
            let index = try assembled(cellSize: cellSize)
            guard index.count == meta.flyers else {
                return .failure(Rejection("it holds \(index.count) flyers, not \(meta.flyers)"))
            }
            return .success(index)
        } catch {
            return .failure(Rejection("\(error)"))
        }
    }

    /// Why a stored index is not used.
    struct Rejection: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private func assembled(cellSize: Double) throws(PackedIndexError) -> PackedFlyerIndex {
        guard let ids = PackedStrings(starts: idStarts, bytes: idBytes) else { throw .malformed("id offsets") }
        guard let texts = PackedStrings(starts: textStarts, bytes: textBytes) else {
            throw .malformed("text offsets")
        }
        guard let symbols = SymbolTable(symbols: textSymbols, lengths: textSymbolLengths) else {
            throw .malformed("text symbols")
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
                slots: slots, anchors: anchors, ids: ids, texts: texts, textSymbols: symbols, validities: validities,
                byID: byID,
                categories: categories,
                cellKeys: cellKeys, cellPointStart: cellPointStart,
                cellBoxes: cellBoxes, cellFirstPart: cellFirstPart, partStart: partStart, partBoxes: partBoxes,
                cellAreaStart: cellAreaStart, cellAreas: cellAreas, largeAreas: largeAreas,
                areaGeometries: geometries, areaShapes: shapes))
    }
}
