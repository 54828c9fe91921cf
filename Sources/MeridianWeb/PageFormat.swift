import Foundation
import MeridianCore

/// Dates and times for people, in the configured time zone, locale-independent ("Sun 5 May 2024", "07:30").
public struct PageFormat: Sendable {
    public let timeZone: TimeZone
    public let units: UnitSystem

    public init(timeZone: TimeZone, units: UnitSystem) {
        self.timeZone = timeZone
        self.units = units
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// "Sun 5 May 2024".
    public func day(_ date: Date) -> String {
        let parts = calendar.dateComponents([.weekday, .day, .month, .year], from: date)
        let weekday = Self.weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = Self.months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday) \(parts.day ?? 1) \(month) \(parts.year ?? 1970)"
    }

    /// "5 May" (with the year when it is not `reference`'s year).
    public func shortDay(_ date: Date, reference: Date = Date()) -> String {
        let parts = calendar.dateComponents([.day, .month, .year], from: date)
        let month = Self.months[((parts.month ?? 1) - 1) % 12]
        let sameYear = calendar.component(.year, from: reference) == parts.year
        return sameYear ? "\(parts.day ?? 1) \(month)" : "\(parts.day ?? 1) \(month) \(parts.year ?? 1970)"
    }

    /// "07:30".
    public func time(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return "\(Self.twoDigits(parts.hour ?? 0)):\(Self.twoDigits(parts.minute ?? 0))"
    }

    /// "2024-05-05", for date inputs.
    public func isoDay(_ date: Date) -> String {
        let parts = calendar.dateComponents([.day, .month, .year], from: date)
        return "\(parts.year ?? 1970)-\(Self.twoDigits(parts.month ?? 1))-\(Self.twoDigits(parts.day ?? 1))"
    }

    /// "May 2024".
    public func month(_ date: Date) -> String {
        let parts = calendar.dateComponents([.month, .year], from: date)
        return "\(Self.months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970)"
    }

    /// The time zone's abbreviation at `date` ("CEST", "UTC", "GMT+2").
    public func zoneName(at date: Date) -> String {
        timeZone.abbreviation(for: date) ?? timeZone.identifier
    }

    /// A distance in the configured units.
    public func distance(_ metres: Double) -> String {
        DistanceFormat.string(metres: metres, units: units)
    }

    /// How long ago, for an age in seconds: "0.4 s ago", "12 s ago", "3 min ago".
    public static func age(_ seconds: Double) -> String {
        if seconds < 10 { return "\(NumberText.fixed(seconds, decimals: 1)) s ago" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s ago" }
        return "\(Int((seconds / 60).rounded())) min ago"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
