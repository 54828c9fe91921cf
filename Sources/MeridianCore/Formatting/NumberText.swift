import Foundation

/// Locale-independent fixed-point number printing: always `.` as the decimal
/// separator, never exponent notation, never "-0".
public enum NumberText {
    /// `value` rounded half away from zero to `decimals` places (0...9), e.g. `fixed(2.25, decimals: 1)` is "2.3".
    public static func fixed(_ value: Double, decimals: Int) -> String {
        text(value, decimals: decimals, trimming: false)
    }

    /// Like `fixed`, with trailing zeros (and a trailing point) removed: `trimmed(1.5, decimals: 6)` is "1.5".
    public static func trimmed(_ value: Double, decimals: Int) -> String {
        text(value, decimals: decimals, trimming: true)
    }

    /// The text of `fixed`, without its fraction's trailing zeros when `trimming`.
    private static func text(_ value: Double, decimals: Int, trimming: Bool) -> String {
        guard value.isFinite else { return "--" }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumWritten) { buffer in
            guard let count = write(value, decimals: decimals, trimming: trimming, to: buffer.baseAddress!) else {
                return huge(value, decimals: min(max(decimals, 0), 9), trimming: trimming)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// The most bytes `write` writes: a sign, 16 whole digits, the point and 9 decimals.
    public static let maximumWritten = 32

    /// Writes the text of `fixed` (or `trimmed`, when `trimming`) to `output` and returns how many bytes it took
    /// (at most `maximumWritten`); nil, writing nothing, for a value that is not finite or has 9e15 units of the
    /// last decimal or more.
    public static func write(_ value: Double, decimals: Int, trimming: Bool, to output: UnsafeMutablePointer<UInt8>)
        -> Int?
    {
        guard value.isFinite else { return nil }
        let decimals = min(max(decimals, 0), 9)
        let scaled = value.magnitude * scales[decimals]
        // At 9e15 and above nothing is left to round (doubles are whole numbers from 2^52), so the limit can be
        // checked before rounding.
        guard scaled < 9.0e15 else { return nil }
        // Half away from zero, as `rounded()` does, without calling libm: below 2^53 the part after the point,
        // `scaled - whole`, is exact.
        let whole = UInt64(scaled)
        let units = scaled - Double(whole) >= 0.5 ? whole &+ 1 : whole
        var count = 0
        if value < 0 && units != 0 {
            output[0] = UInt8(ascii: "-")
            count = 1
        }
        // All the digits (at least one before the point), then the last `decimals` moved one place on for the
        // point: no division by a power of ten chosen at run time.
        count += digits(units, width: decimals + 1, into: output + count)
        guard decimals > 0 else { return count }
        let point = count - decimals
        var index = count
        while index > point {
            output[index] = output[index - 1]
            index -= 1
        }
        output[point] = UInt8(ascii: ".")
        count += 1
        if trimming {
            while output[count - 1] == UInt8(ascii: "0") { count -= 1 }
            if output[count - 1] == UInt8(ascii: ".") { count -= 1 }
        }
        return count
    }

    /// Writes the decimal digits of `value`, zero-padded to `width`, and returns how many: two digits at a time from
    /// the last, which halves the divisions (every number of a JSON answer or a fix passes here).
    static func digits(_ value: UInt64, width: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let count = max(digitCount(value), width)
        var rest = value
        var index = count
        while rest >= 100 {
            let pair = Int(rest % 100)
            rest /= 100
            index -= 2
            output[index] = pairDigits.utf8Start[2 * pair]
            output[index + 1] = pairDigits.utf8Start[2 * pair + 1]
        }
        if rest >= 10 {
            index -= 2
            output[index] = pairDigits.utf8Start[2 * Int(rest)]
            output[index + 1] = pairDigits.utf8Start[2 * Int(rest) + 1]
        } else {
            index -= 1
            output[index] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
        }
        while index > 0 {
            index -= 1
            output[index] = UInt8(ascii: "0")
        }
        return count
    }

    /// The number of decimal digits of `value` (1 for 0): the bit length times log10(2) (1233 / 4096) gives it or one
    /// less, and one comparison tells which.
    static func digitCount(_ value: UInt64) -> Int {
        // `| 1` makes 0 count as 1 and changes no other count (no power of ten is odd but 1).
        let odd = value | 1
        let guess = ((64 &- odd.leadingZeroBitCount) &* 1233) &>> 12
        return odd < integerPowers[guess] ? guess : guess &+ 1
    }

    /// 10^0 through 10^19 (the largest below 2^64).
    private static let integerPowers: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000
    ]

    /// 10^0 through 10^9, the scales of `write`'s decimals.
    private static let scales: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// "00", "01", … "99" one after another.
    private static let pairDigits: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Values of 9e15 units and more, through `String(format:)`.
    private static func huge(_ value: Double, decimals: Int, trimming: Bool) -> String {
        var text = String(format: "%.\(decimals)f", value)
        guard trimming, text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
