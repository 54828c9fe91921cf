import MeridianCore

/// A field that could not be read; the sentence is rejected and counted as `invalid_fields`.
public struct FieldError: Error, Sendable, Equatable {
    /// 0-based field index (0 is the address, e.g. `GPGGA`).
    public var index: Int
}

/// The comma-separated fields of one sentence body, read in place without copying.
///
/// Number readers return `nil` for an empty or absent field and throw `FieldError`
/// for text that is not a number, so a corrupted sentence is rejected rather than
/// half-used.
struct Fields {
    static let maximumCount = 64
    /// The capacity `init` and the framer need: `maximumCount + 1` offsets, plus 16 for the commas of the last
    /// block of bytes they read before they check the count (once per block rather than once per comma).
    static let storageCapacity = maximumCount + 17

    let bytes: UnsafeBufferPointer<UInt8>
    /// `starts[i]` is the offset of field `i`; `starts[count]` is one past the end plus one.
    private let starts: UnsafeMutableBufferPointer<UInt32>
    /// Number of fields, including the address.
    let count: Int

    /// Splits `bytes` at commas into `storage` (capacity `storageCapacity`); `nil` when there are too many fields
    /// (or, beyond any sentence, 4 GiB of bytes).
    init?(_ bytes: UnsafeBufferPointer<UInt8>, storage: UnsafeMutableBufferPointer<UInt32>) {
        let n = bytes.count
        guard n < UInt32.max else { return nil }
        var commas = 0
        var i = 0
        if let base = bytes.baseAddress {
            // Eight bytes at a time: `commaBits` marks each comma's byte with its high bit.
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= n {
                var bits = Self.commaBits(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                while bits != 0 {
                    commas &+= 1
                    storage[commas] = UInt32(truncatingIfNeeded: i &+ bits.trailingZeroBitCount &>> 3 &+ 1)
                    bits &= bits &- 1
                }
                guard commas < Self.maximumCount else { return nil }
                i &+= 8
            }
        }
        while i < n {
            if bytes[i] == UInt8(ascii: ",") {
                commas += 1
                guard commas < Self.maximumCount else { return nil }
                storage[commas] = UInt32(truncatingIfNeeded: i + 1)
            }
            i += 1
        }
        self.init(framed: bytes, storage: storage, commas: commas)
    }

    /// The fields of a body split at its commas: `storage` holds the start of each field after the first (`commas`
    /// of them: the offset after each comma), as the framer writes them while it checks a sentence and
    /// `init(_:storage:)` when it splits one; `nil` when there are too many.
    init?(framed bytes: UnsafeBufferPointer<UInt8>, storage: UnsafeMutableBufferPointer<UInt32>, commas: Int) {
        guard commas < Self.maximumCount else { return nil }
        self.bytes = bytes
        starts = storage
        storage[0] = 0
        count = commas + 1
        storage[count] = UInt32(truncatingIfNeeded: bytes.count + 1)
    }

    /// The high bit of every byte of `word` that is a comma, and no other bit.
    @inline(__always)
    static func commaBits(_ word: UInt64) -> UInt64 { ByteWord.equal(word, UInt8(ascii: ",")) }

    @inline(__always)
    func range(_ index: Int) -> Range<Int> {
        guard index < count else { return 0..<0 }
        return Int(starts[index])..<(Int(starts[index + 1]) - 1)
    }

    @inline(__always)
    func isEmpty(_ index: Int) -> Bool { range(index).isEmpty }

    /// The single character of a field (`A`, `N`…), `nil` when empty; the first one when longer.
    @inline(__always)
    func character(_ index: Int) -> UInt8? {
        let r = range(index)
        return r.isEmpty ? nil : bytes[r.lowerBound]
    }

    /// Compares a field with ASCII text.
    func equals(_ index: Int, _ text: StaticString) -> Bool {
        let r = range(index)
        guard r.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for offset in 0..<r.count where bytes[r.lowerBound + offset] != expected[offset] { return false }
        return true
    }
}

/// Proleptic Gregorian calendar helpers (UTC).
enum CivilDate {
    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    static func days(year: Int, month: Int, day: Int) -> Int {
        ISO8601.daysSinceEpoch(year: year, month: month, day: day)
    }
}
