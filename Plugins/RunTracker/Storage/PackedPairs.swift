import Foundation

/// Pairs of float64, little-endian, one after the other: the stored form of progress samples (time, distance),
/// pauses (start, end) and paths (latitude, longitude).
enum PackedPairs {
    /// `count` pairs, pair `i` given by `pair(i)`.
    static func pack(count: Int, _ pair: (Int) -> (Double, Double)) -> Data {
        var data = Data(count: count * 16)
        data.withUnsafeMutableBytes { raw in
            for index in 0..<count {
                let (first, second) = pair(index)
                raw.storeBytes(of: first.bitPattern.littleEndian, toByteOffset: index * 16, as: UInt64.self)
                raw.storeBytes(of: second.bitPattern.littleEndian, toByteOffset: index * 16 + 8, as: UInt64.self)
            }
        }
        return data
    }

    /// Hands every pair of `data` to `take` in order; `false` when `data` is not a whole number of pairs or `take`
    /// refuses one (then the rest is not read).
    static func unpack(_ data: Data, _ take: (Double, Double) -> Bool) -> Bool {
        guard data.count % 16 == 0 else { return false }
        return data.withUnsafeBytes { raw -> Bool in
            for index in 0..<(data.count / 16) {
                let first = Double(
                    bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 16, as: UInt64.self)))
                let second = Double(
                    bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 16 + 8, as: UInt64.self))
                )
                guard take(first, second) else { return false }
            }
            return true
        }
    }
}
