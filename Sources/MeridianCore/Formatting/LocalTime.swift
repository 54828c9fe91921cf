import Foundation

/// Dates for people in a time zone (the configuration's `time_zone`), locale-free:
/// `2024-05-01 09:30` and `2024-05-01`.
public enum LocalTime {
    /// Date and time to the minute, `yyyy-MM-dd HH:mm`, in `zone`.
    public static func minute(_ date: Date, in zone: TimeZone) -> String {
        let parts = components(date, zone)
        return "\(day(parts)) \(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0))"
    }

    /// The calendar day, `yyyy-MM-dd`, in `zone`.
    public static func day(_ date: Date, in zone: TimeZone) -> String {
        day(components(date, zone))
    }

    private static func components(_ date: Date, _ zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    }

    private static func day(_ parts: DateComponents) -> String {
        let year = String(parts.year ?? 0)
        return
            "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(twoDigits(parts.month ?? 0))-\(twoDigits(parts.day ?? 0))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
