import Foundation

/// A calendar day written as a bare ISO 8601 date (`2030-12-31`), placed in a time zone (the configuration's
/// `time_zone`): a day begins and ends at local midnight, whatever UTC says.
public enum LocalDay {
    /// The start of the day `text` names in `zone` and the start of the next day, when `text` is a bare date
    /// (`yyyy-MM-dd`); nil for anything else (date-times carry their own offset).
    public static func bounds(of text: String, in zone: TimeZone) -> (start: Date, end: Date)? {
        guard text.utf8.count == 10, let utcMidnight = ISO8601.date(from: text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let day = calendar.dateComponents([.year, .month, .day], from: utcMidnight)
        calendar.timeZone = zone
        guard let start = calendar.date(from: day), let end = calendar.date(byAdding: .day, value: 1, to: start) else {
            return nil
        }
        return (start, end)
    }
}
