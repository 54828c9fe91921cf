/// Tests on the eight bytes of a little-endian 64-bit word at once, for scanners that read text eight bytes at a
/// time (the NMEA framer, JSON string escaping). Each answer marks the bytes it finds with their high bit.
public enum ByteWord {
    /// 0x01 in every byte.
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    /// 0x80 in every byte.
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The bytes equal to `byte`, exactly: after `^` they are zero, and adding 0x7F to the low seven bits sets
    /// the high bit of every other byte without carrying into the next one.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return ~(((x & ~highBits) &+ ~highBits) | x) & highBits
    }

    /// The bytes equal to `byte`, cheaper than `equal`: the lowest mark is exact, marks above a true one may be
    /// spurious (the borrow of the zero-byte test in "Bit Twiddling Hacks"), so it suits finding the first.
    @inlinable @inline(__always)
    public static func firstEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highBits
    }

    /// The control bytes (below 0x20), exactly: with the high bit cleared, adding 0x60 reaches 0x80 from 0x20 up.
    @inlinable @inline(__always)
    public static func control(_ word: UInt64) -> UInt64 {
        ~((word & ~highBits) &+ ones &* 0x60) & ~word & highBits
    }

    /// The bytes outside printable ASCII (0x20–0x7E): control bytes, DEL and non-ASCII, exactly (adding 0x01 to
    /// the low seven bits reaches 0x80 only from 0x7F).
    @inlinable @inline(__always)
    public static func unprintable(_ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        return (~(low &+ ones &* 0x60) | (low &+ ones) | word) & highBits
    }
}
