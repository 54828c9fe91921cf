/// A fast 64-bit checksum of bytes (four multiply–rotate lanes over 8-byte words): it tells a damaged
/// stored search index from a sound one; it is not meant to resist deliberate forgery.
enum Checksum {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B1_85EB_CA87
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, UInt64(bytes.count))
        func mix(_ lane: inout UInt64, _ word: UInt64) {
            lane = ((lane ^ word) &* prime)
            lane = (lane << 31) | (lane >> 33)
        }
        var offset = 0
        while offset + 32 <= bytes.count {
            mix(&lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            mix(&lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            mix(&lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            mix(&lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        while offset < bytes.count {
            mix(&lanes.0, UInt64(bytes[offset]) | 0x100)
            offset += 1
        }
        var result = lanes.0
        mix(&result, lanes.1)
        mix(&result, lanes.2)
        mix(&result, lanes.3)
        return result
    }
}
