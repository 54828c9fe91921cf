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
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return nil }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var fraction = units % divisor
        var width = decimals
        if trimming {
            while width > 0 && fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
        }
        var count = 0
        if value < 0 && units != 0 {
            output[0] = UInt8(ascii: "-")
            count = 1
        }
        count += digits(units / divisor, width: 1, into: output + count)
        if width > 0 {
            output[count] = UInt8(ascii: ".")
            count += 1 + digits(fraction, width: width, into: output + count + 1)
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

    /// The number of decimal digits of `value` (1 for 0).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10_000 {
            rest /= 10_000
            count += 4
        }
        if rest >= 100 {
            rest /= 100
            count += 2
        }
        if rest >= 10 { count += 1 }
        return count
    }

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
