/// The FIT base types the writer uses (profile numbers with the endian bit), with their sizes and invalid values.
enum FITBaseType: UInt8 {
    case enumeration = 0x00
    case sint8 = 0x01
    case uint8 = 0x02
    case sint16 = 0x83
    case uint16 = 0x84
    case sint32 = 0x85
    case uint32 = 0x86
    case string = 0x07
    case uint32z = 0x8C

    /// Bytes of one element (a string field's size is its own).
    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string: return 1
        case .sint16, .uint16: return 2
        case .sint32, .uint32, .uint32z: return 4
        }
    }

    /// The range of valid raw values: the type's range less its invalid value.
    var valid: ClosedRange<Int64> {
        switch self {
        case .enumeration, .uint8, .string: return 0...0xFE
        case .sint8: return -0x7F...0x7E
        case .sint16: return -0x7FFF...0x7FFE
        case .uint16: return 0...0xFFFE
        case .sint32: return -0x7FFF_FFFF...0x7FFF_FFFE
        case .uint32: return 0...0xFFFF_FFFE
        case .uint32z: return 1...0xFFFF_FFFF
        }
    }

    /// The invalid value ("not measured").
    var invalid: Int64 {
        switch self {
        case .enumeration, .uint8, .string: return 0xFF
        case .sint8: return 0x7F
        case .sint16: return 0x7FFF
        case .uint16: return 0xFFFF
        case .sint32: return 0x7FFF_FFFF
        case .uint32: return 0xFFFF_FFFF
        case .uint32z: return 0
        }
    }
}

/// One field of a message to write: its profile number, base type and raw value (already scaled; `nil` writes the
/// invalid value, a value out of range is clamped into the valid range).
struct FITFieldValue {
    var number: UInt8
    var type: FITBaseType
    var value: Int64?
    /// The text of a string field, written NUL-terminated in `size` bytes.
    var text: String?
    var size: Int

    init(_ number: UInt8, _ type: FITBaseType, _ value: Int64?) {
        self.number = number
        self.type = type
        self.value = value
        size = type.size
    }

    /// `value × scale + offset × scale`, rounded, as the profile stores a field (`nil` stays `nil`).
    init(_ number: UInt8, _ type: FITBaseType, _ value: Double?, scale: Double, offset: Double = 0) {
        let raw = value.flatMap { value -> Int64? in
            let scaled = ((value + offset) * scale).rounded()
            return scaled.isFinite ? Int64(max(-9e15, min(9e15, scaled))) : nil
        }
        self.init(number, type, raw)
    }

    /// A string field of `size` bytes (the text is cut at a character boundary to fit with its NUL).
    init(_ number: UInt8, text: String, size: Int) {
        self.number = number
        type = .string
        self.text = text
        self.size = size
    }
}

/// Writes a FIT file: a 14-byte header with its CRC, definition and data messages (little-endian; a new definition
/// only when a message's fields change), and the file CRC.
struct FITMessageWriter {
    private var body: [UInt8] = []
    /// Each local type's current fields (number, type, size) and the global message it holds.
    private var definitions: [(global: UInt16, layout: [[Int]])] = []

    /// Appends a data message of `global`, after its definition when its fields differ from the last definition
    /// written for that message.
    mutating func write(_ global: UInt16, _ fields: [FITFieldValue]) {
        let layout = fields.map { [Int($0.number), Int($0.type.rawValue), $0.size] }
        var local = definitions.firstIndex { $0.global == global }
        if local == nil || definitions[local ?? 0].layout != layout {
            if local == nil {
                local = definitions.count < 16 ? definitions.count : 15
                if definitions.count < 16 { definitions.append((global, layout)) }
            }
            let index = local ?? 0
            definitions[index] = (global, layout)
            body += [0x40 | UInt8(index), 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
            for field in fields { body += [field.number, UInt8(field.size), field.type.rawValue] }
        }
        body.append(UInt8(local ?? 0))
        for field in fields { append(field) }
    }

    private mutating func append(_ field: FITFieldValue) {
        if let text = field.text {
            var bytes = Array(text.utf8)
            while bytes.count > field.size - 1 {
                bytes.removeLast()
                while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
                if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
            }
            body += bytes + [UInt8](repeating: 0, count: field.size - bytes.count)
            return
        }
        let raw =
            field.value.map { min(max($0, field.type.valid.lowerBound), field.type.valid.upperBound) }
            ?? field.type.invalid
        let bits = UInt64(bitPattern: raw)
        for index in 0..<field.type.size { body.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
    }

    /// The whole file: header (protocol 1.0, profile 21.40), the messages, and the CRCs.
    func bytes() -> [UInt8] {
        let size = UInt32(body.count)
        var file: [UInt8] = [14, 0x10, UInt8(2140 & 0xFF), UInt8(2140 >> 8)]
        file += (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) }
        file += Array(".FIT".utf8)
        let headerCRC = file.withUnsafeBytes { FITCRC.compute($0, 0..<12) }
        file += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        file += body
        let crc = file.withUnsafeBytes { FITCRC.compute($0, 0..<file.count) }
        return file + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }
}
