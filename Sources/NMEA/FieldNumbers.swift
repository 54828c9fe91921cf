import MeridianCore

/// Numbers, times, dates and angles read from fields: `nil` for an empty field, `FieldError`
/// for text that is not what the field must hold.
extension Fields {
    /// A non-negative or negative integer of at most nine digits.
    func int(_ index: Int) throws(FieldError) -> Int? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        var i = r.lowerBound
        let sign = bytes[i]
        let negative = sign == UInt8(ascii: "-")
        if negative || sign == UInt8(ascii: "+") { i &+= 1 }
        guard i < r.upperBound, r.upperBound &- i <= 9 else { throw FieldError(index: index) }
        var value = 0
        while i < r.upperBound {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { throw FieldError(index: index) }
            value = value &* 10 &+ Int(digit)
            i &+= 1
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

    /// Powers of ten that are exact in a Double (a literal, so it needs no lazy initialisation).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    ]

    /// Parses `[+-]digits[.digits]` in `range` (not empty); `nil` when anything else is there.
    @inline(__always)
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        let sign = bytes[i]
        let negative = sign == UInt8(ascii: "-")
        if negative || sign == UInt8(ascii: "+") { i &+= 1 }
        // Up to 18 digits make a mantissa below 10^18 with none dropped; longer text takes the careful path.
        guard range.upperBound &- i <= 18 else { return longDecimal(bytes, i..<range.upperBound, negative: negative) }
        guard let parts = digitsAndFraction(bytes, i, range.upperBound), parts.wholeDigits &+ parts.fractionDigits > 0
        else {
            return nil
        }
        let mantissa = parts.whole &* integerPowersOfTen[parts.fractionDigits] &+ parts.fraction
        return scaled(mantissa, fractionDigits: parts.fractionDigits, negative: negative)
    }

    /// `digits[.digits]` (either part may be empty) from `start` to `end`: the digits before and after the
    /// point as two integers, with how many there are of each; `nil` when anything else is there. No
    /// overflow check: callers pass at most 18 characters.
    @inline(__always)
    private static func digitsAndFraction(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
        -> (whole: UInt64, wholeDigits: Int, fraction: UInt64, fractionDigits: Int)?
    {
        var i = start
        var whole: UInt64 = 0
        while i < end {
            let digit = bytes[i] &- 0x30
            if digit >= 10 { break }
            whole = whole &* 10 &+ UInt64(digit)
            i &+= 1
        }
        let wholeDigits = i &- start
        guard i < end else { return (whole, wholeDigits, 0, 0) }
        guard bytes[i] == UInt8(ascii: ".") else { return nil }
        i &+= 1
        let fractionStart = i
        var fraction: UInt64 = 0
        while i < end {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            fraction = fraction &* 10 &+ UInt64(digit)
            i &+= 1
        }
        return (whole, wholeDigits, fraction, i &- fractionStart)
    }

    /// 10^0 through 10^18.
    private static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000
    ]

    /// `decimal` for more than 18 characters of digits: digits after the 18th significant one are
    /// dropped when they follow the point; before it the number is too large for any NMEA field.
    private static func longDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, negative: Bool) -> Double?
    {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        for i in range {
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
                    return nil
                }
                digits += 1
            }
        }
        guard digits > 0 else { return nil }
        return scaled(mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// `±mantissa / 10^fractionDigits`, correctly rounded while both are exact in a Double.
    @inline(__always)
    private static func scaled(_ mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double {
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[min(fractionDigits, 22)] }
        return negative ? -value : value
    }

    /// Time of day `hhmmss[.sss]` in milliseconds since midnight.
    func timeOfDay(_ index: Int) throws(FieldError) -> Int? {
        let r = range(index)
        guard !r.isEmpty else { return nil }
        guard r.count >= 6 else { throw FieldError(index: index) }
        @inline(__always) func two(_ offset: Int) -> Int? {
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
        let angle: Double
        if let plain = Self.plainAngle(bytes, r) {
            angle = plain
        } else {
            angle = try Self.angle(bytes, r, index: index)
        }
        guard angle <= limit else { throw FieldError(index: index) }
        return hemisphere == negative ? -angle : angle
    }

    /// `(d)ddmm.mmmm` split at the two digits before the point: degrees and minutes, each read by `decimal`.
    private static func angle(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, index: Int) throws(FieldError)
        -> Double
    {
        var point = r.lowerBound
        while point < r.upperBound, bytes[point] != UInt8(ascii: ".") { point += 1 }
        let minutesStart = point - 2
        guard minutesStart >= r.lowerBound else { throw FieldError(index: index) }
        var degrees = 0.0
        if minutesStart > r.lowerBound {
            guard let value = Self.decimal(bytes, r.lowerBound..<minutesStart), value >= 0 else {
                throw FieldError(index: index)
            }
            degrees = value
        }
        guard let minutes = Self.decimal(bytes, minutesStart..<r.upperBound), minutes >= 0, minutes < 60 else {
            throw FieldError(index: index)
        }
        return degrees + minutes / 60
    }

    /// The common case of `angle(_:_:index:)` in one pass: at most 18 characters, only digits and at
    /// most one point, at least two digits before it, minutes under 60. It computes exactly what `decimal`
    /// gives for the two parts (the degrees are the digits before the last two, the minutes those two and
    /// the fraction); `nil` sends anything else (signs, long text, minutes of 60 or more) the general way.
    @inline(__always)
    private static func plainAngle(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Double? {
        guard r.count <= 18, let parts = digitsAndFraction(bytes, r.lowerBound, r.upperBound), parts.wholeDigits >= 2
        else {
            return nil
        }
        let minutesMantissa = (parts.whole % 100) &* integerPowersOfTen[parts.fractionDigits] &+ parts.fraction
        let minutes = scaled(minutesMantissa, fractionDigits: parts.fractionDigits, negative: false)
        guard minutes < 60 else { return nil }
        return Double(parts.whole / 100) + minutes / 60
    }
}
