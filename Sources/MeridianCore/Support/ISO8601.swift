import Foundation

/// ISO 8601 timestamps in UTC with millisecond precision, e.g. `2024-05-01T07:30:12.250Z`.
///
/// Formatting is done by hand: it is locale-independent, thread-safe and much
/// faster than `ISO8601DateFormatter`, which matters when streaming millions of fixes.
public enum ISO8601 {
    /// Formats `date` as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC).
    public static func string(from date: Date) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            let count = write(date, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// The most bytes `write(_:to:)` produces (years before 1000 or before year 0 included).
    static let maximumLength = 32

    /// Writes the text of `string(from: date)` to `output`, which has room for `maximumLength` bytes;
    /// returns the number of bytes written. Lets JSON writers format millions of times without a `String`.
    static func write(_ date: Date, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard totalMilliseconds.isFinite, abs(totalMilliseconds) < 253_402_300_800_000 else {
            return copy("invalid-date", to: output)
        }
        let milliseconds = Int64(totalMilliseconds)
        var days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let millisOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = civilDate(fromDaysSinceEpoch: &days)
        let count = writeYear(year, to: output)
        let rest = output + count
        rest[0] = UInt8(ascii: "-")
        writeDigits(month, width: 2, to: rest + 1)
        rest[3] = UInt8(ascii: "-")
        writeDigits(day, width: 2, to: rest + 4)
        rest[6] = UInt8(ascii: "T")
        writeDigits(millisOfDay / 3_600_000, width: 2, to: rest + 7)
        rest[9] = UInt8(ascii: ":")
        writeDigits(millisOfDay / 60_000 % 60, width: 2, to: rest + 10)
        rest[12] = UInt8(ascii: ":")
        writeDigits(millisOfDay / 1000 % 60, width: 2, to: rest + 13)
        rest[15] = UInt8(ascii: ".")
        writeDigits(millisOfDay % 1000, width: 3, to: rest + 16)
        rest[19] = UInt8(ascii: "Z")
        return count + 20
    }

    /// Parses ISO 8601 / RFC 3339 date-times with an optional fraction and a `Z` or `±hh:mm` offset.
    /// A bare date (`2024-05-01`) means midnight UTC.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                index += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        var seconds = Double(daysSinceEpoch(year: year, month: month, day: day)) * 86_400
        if index == bytes.count { return Date(timeIntervalSince1970: seconds) }
        guard expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")) || expect(UInt8(ascii: " ")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
            hour < 24, minute < 60
        else { return nil }
        var second = 0.0
        if expect(UInt8(ascii: ":")) {
            guard let whole = number(2), whole <= 60 else { return nil }
            second = Double(whole)
            if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    second += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        seconds += Double(hour * 3600 + minute * 60) + second
        guard index < bytes.count else { return nil }
        if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            // UTC
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Double = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let offsetHours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func civilDate(fromDaysSinceEpoch days: inout Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The year zero-padded to four characters (the guard in `write` keeps it below 10000). A negative
    /// year is padded in front of its sign ("00-5"), as left-padding `String(year)` gives.
    private static func writeYear(_ year: Int64, to output: UnsafeMutablePointer<UInt8>) -> Int {
        guard year < 0 else {
            writeDigits(year, width: 4, to: output)
            return 4
        }
        let digits = String(-year).utf8.count
        let padding = max(0, 3 - digits)
        for index in 0..<padding { output[index] = UInt8(ascii: "0") }
        output[padding] = UInt8(ascii: "-")
        writeDigits(-year, width: digits, to: output + padding + 1)
        return padding + 1 + digits
    }

    /// Writes the last `width` decimal digits of a non-negative `value`, zero-padded.
    @inline(__always)
    private static func writeDigits(_ value: Int64, width: Int, to output: UnsafeMutablePointer<UInt8>) {
        var rest = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            output[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        }
    }

    private static func copy(_ text: StaticString, to output: UnsafeMutablePointer<UInt8>) -> Int {
        output.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }
}
