/// The CRC-16 FIT files carry in their header and at their end: the FIT SDK's nibble-table
/// algorithm is CRC-16/ARC (reflected polynomial 0xA001, initial value 0), computed here eight
/// bytes at a time ("slicing by 8").
enum FITCRC {
    /// `table[k * 256 + byte]`: the CRC change of `byte` followed by `k` zero bytes.
    private static let table: [UInt16] = {
        let first: [UInt16] = (0..<256).map { byte in
            var crc = UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
            return crc
        }
        var tables = [first]
        for _ in 1..<8 {
            let previous = tables[tables.count - 1]
            tables.append(previous.map { ($0 >> 8) ^ first[Int($0 & 0xFF)] })
        }
        return tables.flatMap { $0 }
    }()

    /// The CRC of `bytes[range]`.
    static func compute(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt16 = 0
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                let x0 = Int(bytes[index] ^ UInt8(truncatingIfNeeded: crc))
                let x1 = Int(bytes[index + 1] ^ UInt8(truncatingIfNeeded: crc >> 8))
                crc =
                    table[7 * 256 + x0] ^ table[6 * 256 + x1]
                    ^ table[5 * 256 + Int(bytes[index + 2])] ^ table[4 * 256 + Int(bytes[index + 3])]
                    ^ table[3 * 256 + Int(bytes[index + 4])] ^ table[2 * 256 + Int(bytes[index + 5])]
                    ^ table[256 + Int(bytes[index + 6])] ^ table[Int(bytes[index + 7])]
                index += 8
            }
            while index < range.upperBound {
                crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[index])]
                index += 1
            }
            return crc
        }
    }
}
