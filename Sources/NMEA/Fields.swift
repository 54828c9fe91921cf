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

    let bytes: UnsafeBufferPointer<UInt8>
    /// `starts[i]` is the offset of field `i`; `starts[count]` is one past the end plus one.
    private let starts: UnsafeMutableBufferPointer<Int>
    /// Number of fields, including the address.
    let count: Int

    /// Splits `bytes` at commas into `storage` (capacity `maximumCount + 1`); `nil` when there are too many fields.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, storage: UnsafeMutableBufferPointer<Int>) {
        self.bytes = bytes
        self.starts = storage
        var count = 0
        storage[0] = 0
        var i = 0
        let n = bytes.count
        while i < n {
            if bytes[i] == UInt8(ascii: ",") {
                count += 1
                guard count < Self.maximumCount else { return nil }
                storage[count] = i + 1
            }
            i += 1
        }
        count += 1
        storage[count] = n + 1
        self.count = count
    }

    @inline(__always)
    func range(_ index: Int) -> Range<Int> {
        guard index < count else { return 0..<0 }
        return starts[index]..<(starts[index + 1] - 1)
    }

    func isEmpty(_ index: Int) -> Bool { range(index).isEmpty }

    /// The single character of a field (`A`, `N`…), `nil` when empty; the first one when longer.
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

    /// A non-negative or negative integer.
    func int(_ index: Int) throws(FieldError) -> Int? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        var i = r.lowerBound
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < r.upperBound, r.upperBound - i <= 9 else { throw FieldError(index: index) }
        var value = 0
        while i < r.upperBound {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { throw FieldError(index: index) }
            value = value * 10 + Int(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// A decimal number such as `-12.345`; correctly rounded for up to 15 significant digits.
    func double(_ index: Int) throws(FieldError) -> Double? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        guard let value = Self.decimal(bytes, r) else { throw FieldError(index: index) }
        return value
    }

    /// Powers of ten that are exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses `[+-]digits[.digits]` in `range`; `nil` when anything else is there.
    @inline(__always)
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while i < range.upperBound {
            let byte = bytes[i]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                let digit = byte &- 0x30
                guard digit < 10 else { return nil }
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if seenPoint { fractionDigits += 1 }
                } else if !seenPoint {
                    return nil // absurdly large: no NMEA field is
                }
                digits += 1
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[min(fractionDigits, 22)] }
        return negative ? -value : value
    }

    /// Time of day `hhmmss[.sss]` in milliseconds since midnight.
    func timeOfDay(_ index: Int) throws(FieldError) -> Int? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        guard r.count >= 6 else { throw FieldError(index: index) }
        func two(_ offset: Int) -> Int? {
            let a = bytes[r.lowerBound + offset] &- 0x30, b = bytes[r.lowerBound + offset + 1] &- 0x30
            return a < 10 && b < 10 ? Int(a) * 10 + Int(b) : nil
        }
        guard let hours = two(0), let minutes = two(2), hours < 24, minutes < 60,
              let seconds = Self.decimal(bytes, (r.lowerBound + 4)..<r.upperBound), seconds >= 0, seconds < 61
        else { throw FieldError(index: index) }
        return hours * 3_600_000 + minutes * 60_000 + Int((seconds * 1000).rounded())
    }

    /// Date `ddmmyy` as days since 1970-01-01 (two-digit years 80–99 are 19xx, others 20xx).
    func date(_ index: Int) throws(FieldError) -> Int? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        guard r.count == 6, let value = try int(index) else { throw FieldError(index: index) }
        let day = value / 10_000, month = value / 100 % 100, shortYear = value % 100
        let year = shortYear >= 80 ? 1900 + shortYear : 2000 + shortYear
        guard CivilDate.isValid(year: year, month: month, day: day) else { throw FieldError(index: index) }
        return CivilDate.days(year: year, month: month, day: day)
    }

    /// Latitude or longitude `(d)ddmm.mmmm` with its hemisphere in the next field; `nil` when empty.
    func angle(_ index: Int, positive: UInt8, negative: UInt8, limit: Double) throws(FieldError) -> Double? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        guard let hemisphere = character(index + 1) else { throw FieldError(index: index + 1) }
        guard hemisphere == positive || hemisphere == negative else { throw FieldError(index: index + 1) }
        var point = r.lowerBound
        while point < r.upperBound, bytes[point] != UInt8(ascii: ".") { point += 1 }
        let minutesStart = point - 2
        guard minutesStart >= r.lowerBound else { throw FieldError(index: index) }
        var degrees = 0.0
        if minutesStart > r.lowerBound {
            guard let value = Self.decimal(bytes, r.lowerBound..<minutesStart), value >= 0 else { throw FieldError(index: index) }
            degrees = value
        }
        guard let minutes = Self.decimal(bytes, minutesStart..<r.upperBound), minutes >= 0, minutes < 60 else {
            throw FieldError(index: index)
        }
        let angle = degrees + minutes / 60
        guard angle <= limit else { throw FieldError(index: index) }
        return hemisphere == negative ? -angle : angle
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
