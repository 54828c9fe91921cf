import Foundation

/// The calendar periods totals are given for, in the configured time zone: ISO weeks (Monday to Sunday), months
/// and years. Periods start at local midnight, so a week with a daylight-saving change is 167 or 169 hours long.
package enum StatsPeriod: String, Sendable, CaseIterable, Codable {
    case week, month, year

    /// Parses `--by`/`by`; anything else is an `invalid` error naming `field`.
    package static func parse(_ text: String, field: String) throws(ProgressError) -> StatsPeriod {
        guard let period = StatsPeriod(rawValue: text) else {
            throw .invalid(field: field, message: "'\(text)' is not a period; use week, month or year")
        }
        return period
    }

    /// The ISO 8601 calendar (weeks from Monday, week 1 holding the year's first Thursday) in `timeZone`.
    static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    private var component: Calendar.Component {
        switch self {
        case .week: return .weekOfYear
        case .month: return .month
        case .year: return .year
        }
    }

    /// The most periods a report chooses its period for: the shortest of week, month and year that cuts the range
    /// into no more (years otherwise), so a first look at ten years of imported runs is ten lines, not 520.
    package static let automaticLimit = 26

    /// The periods from the one holding `first` to the one holding `last`, empty; `nil` when there are more
    /// than `limit`.
    func periods(from first: Date, through last: Date, limit: Int, in calendar: Calendar) -> [PeriodTotals]? {
        var periods: [PeriodTotals] = []
        var interval = self.interval(containing: first, in: calendar)
        while let current = interval, current.start <= last {
            guard periods.count < limit else { return nil }
            periods.append(PeriodTotals(interval: current, label: label(of: current, in: calendar)))
            interval = self.interval(containing: current.end, in: calendar)
        }
        return periods
    }

    /// The shortest period that cuts `first`…`last` into at most `automaticLimit` periods (else years), and them.
    static func automatic(from first: Date, through last: Date, in calendar: Calendar) -> (StatsPeriod, [PeriodTotals])
    {
        for period in [StatsPeriod.week, .month] {
            if let periods = period.periods(from: first, through: last, limit: automaticLimit, in: calendar) {
                return (period, periods)
            }
        }
        return (.year, StatsPeriod.year.periods(from: first, through: last, limit: .max, in: calendar) ?? [])
    }

    /// The period holding `date`.
    func interval(containing date: Date, in calendar: Calendar) -> DateInterval? {
        calendar.dateInterval(of: component, for: date)
    }

    /// The period's name: `2024-W13`, `2024-03` or `2024`.
    func label(of interval: DateInterval, in calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear, .year, .month], from: interval.start)
        func padded(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        switch self {
        case .week: return "\(parts.yearForWeekOfYear ?? 0)-W\(padded(parts.weekOfYear))"
        case .month: return "\(parts.year ?? 0)-\(padded(parts.month))"
        case .year: return "\(parts.year ?? 0)"
        }
    }
}
