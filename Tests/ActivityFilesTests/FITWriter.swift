import Foundation

/// Writes small FIT files for tests: definitions in either byte order, data messages with
/// normal or compressed-timestamp headers, developer fields, header and file CRCs.
struct FITWriter {
    /// A field of a definition: number, size in bytes, base type byte.
    struct Field {
        var number: UInt8
        var size: UInt8
        var baseType: UInt8

        static func uint8(_ number: UInt8) -> Field { Field(number: number, size: 1, baseType: 0x02) }
        static func enumeration(_ number: UInt8) -> Field { Field(number: number, size: 1, baseType: 0x00) }
        static func sint8(_ number: UInt8) -> Field { Field(number: number, size: 1, baseType: 0x01) }
        static func uint16(_ number: UInt8) -> Field { Field(number: number, size: 2, baseType: 0x84) }
        static func sint32(_ number: UInt8) -> Field { Field(number: number, size: 4, baseType: 0x85) }
        static func uint32(_ number: UInt8) -> Field { Field(number: number, size: 4, baseType: 0x86) }
        static func bytes(_ number: UInt8, _ size: UInt8) -> Field { Field(number: number, size: size, baseType: 0x0D) }
        static func string(_ number: UInt8, _ size: UInt8) -> Field {
            Field(number: number, size: size, baseType: 0x07)
        }
    }

    private struct Definition {
        var fields: [Field]
        var developerSizes: [UInt8]
        var bigEndian: Bool
    }

    private(set) var records: [UInt8] = []
    private var definitions: [UInt8: Definition] = [:]

    /// FIT time of a date: seconds since 1989-12-31T00:00:00Z.
    static func time(_ iso: String) -> Int64 {
        let formatter = ISO8601DateFormatter()
        let date = formatter.date(from: iso) ?? Date(timeIntervalSince1970: 0)
        return Int64(date.timeIntervalSince1970) - 631_065_600
    }

    mutating func define(
        local: UInt8, global: UInt16, bigEndian: Bool = false, _ fields: [Field],
        developerFieldSizes: [UInt8] = []
    ) {
        let hasDeveloper = !developerFieldSizes.isEmpty
        records.append(0x40 | (hasDeveloper ? 0x20 : 0) | local)
        records.append(0)
        records.append(bigEndian ? 1 : 0)
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for field in fields { records += [field.number, field.size, field.baseType] }
        if hasDeveloper {
            records.append(UInt8(developerFieldSizes.count))
            for (index, size) in developerFieldSizes.enumerated() { records += [UInt8(index), size, 0] }
        }
        definitions[local] = Definition(fields: fields, developerSizes: developerFieldSizes, bigEndian: bigEndian)
    }

    /// A data message: one value per field (written in the field's first element; the rest of an
    /// array is filled with 0xFF), developer fields as zero bytes. `nil` writes the invalid value.
    mutating func data(local: UInt8, _ values: [Int64?], compressedTimeOffset: UInt8? = nil) {
        guard let definition = definitions[local] else { return }
        if let offset = compressedTimeOffset {
            records.append(0x80 | (local & 0x03) << 5 | (offset & 0x1F))
        } else {
            records.append(local)
        }
        for (field, value) in zip(definition.fields, values) {
            records += encode(value, field: field, bigEndian: definition.bigEndian)
        }
        for size in definition.developerSizes { records += [UInt8](repeating: 0, count: Int(size)) }
    }

    /// Raw bytes appended as they are (for damaged files).
    mutating func raw(_ bytes: [UInt8]) {
        records += bytes
    }

    private func encode(_ value: Int64?, field: Field, bigEndian: Bool) -> [UInt8] {
        let elementSize: Int
        switch field.baseType & 0x1F {
        case 3, 4, 11: elementSize = 2
        case 5, 6, 8, 12: elementSize = 4
        default: elementSize = 1
        }
        var bytes = [UInt8](repeating: 0xFF, count: Int(field.size))
        let signed = [1, 3, 5].contains(field.baseType & 0x1F)
        let invalid: UInt64 =
            signed
            ? (UInt64(1) << (elementSize * 8 - 1)) - 1
            : (elementSize == 8 ? .max : (UInt64(1) << (elementSize * 8)) - 1)
        let bits = value.map { UInt64(bitPattern: $0) } ?? invalid
        var element = (0..<elementSize).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        if bigEndian { element.reverse() }
        for index in 0..<min(elementSize, bytes.count) { bytes[index] = element[index] }
        return bytes
    }

    /// The whole file: header (12 or 14 bytes, with its CRC), records, file CRC.
    func file(headerSize: UInt8 = 14, headerCRC: Bool = true) -> [UInt8] {
        let size = UInt32(records.count)
        var header: [UInt8] = [
            headerSize, 0x20, 0x08, 0x08,
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)
        ]
        header += Array(".FIT".utf8)
        if headerSize == 14 {
            let crc = headerCRC ? Self.crc(header[...]) : 0
            header += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        }
        let body = header + records
        let crc = Self.crc(body[...])
        return body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// CRC-16 exactly as the FIT SDK documents it (nibble table), independent of the decoder's.
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400
        ]
        return table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                var crc: UInt16 = 0
                for byte in bytes {
                    var tmp = table[Int(crc & 0xF)]
                    crc = (crc >> 4) & 0x0FFF
                    crc = crc ^ tmp ^ table[Int(byte & 0xF)]
                    tmp = table[Int(crc & 0xF)]
                    crc = (crc >> 4) & 0x0FFF
                    crc = crc ^ tmp ^ table[Int(byte >> 4)]
                }
                return crc
            }
        }
    }

    /// `bytes` with the file CRC of its first FIT file recomputed (after deliberate damage).
    static func fixingCRC(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 14 else { return bytes }
        let headerSize = Int(bytes[0])
        let dataSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let end = headerSize + dataSize
        guard end + 2 <= bytes.count, end >= 0 else { return bytes }
        var fixed = bytes
        if headerSize == 14 {
            let crc = Self.crc(fixed[0..<12])
            fixed[12] = UInt8(crc & 0xFF)
            fixed[13] = UInt8(crc >> 8)
        }
        let crc = Self.crc(fixed[0..<end])
        fixed[end] = UInt8(crc & 0xFF)
        fixed[end + 1] = UInt8(crc >> 8)
        return fixed
    }
}
