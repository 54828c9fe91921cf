import Foundation
import MeridianCore

/// How far a goal is in one period: done so far, what is left, the days left (today included) and what that makes a
/// day, with the same in words ("38.2 of 50 km, 4 days left, 2.9 km a day to go") in the configured units.
package struct GoalProgress: Sendable, Equatable, Encodable {
    package var goal: Goal
    /// The period (`start`, `end` exclusive, `label` as in `runs stats`).
    package var period: Period
    /// Metres or seconds (`unit`) counted in the period so far.
    package var done: Double
    package var target: Double
    /// `m` or `s`.
    package var unit: String
    /// What is left to reach the target (0 when reached).
    package var remaining: Double
    /// Calendar days from today to the period's last day, both included (0 once the period is over).
    package var daysLeft: Int
    /// `remaining` over `days_left` (null once reached or over).
    @NullWhenAbsent package var perDayToGo: Double?
    package var reached: Bool
    /// When a saved run first brought the period to the target (null before, or when that was not seen by the service).
    @NullWhenAbsent package var reachedAt: Date?
    package var text: String

    package struct Period: Sendable, Equatable, Encodable {
        package var start: Date
        package var end: Date
        package var label: String
    }

    /// The progress of `goal` in the period holding `now` with `done` counted and `reachedAt` recorded.
    package init(
        goal: Goal, done: Double, interval: DateInterval, now: Date, reachedAt: Date?, units: UnitSystem,
        calendar: Calendar
    ) {
        self.goal = goal
        period = Period(start: interval.start, end: interval.end, label: goal.period.label(of: interval, in: calendar))
        self.done = done
        target = goal.target
        unit = goal.metric == .distance ? "m" : "s"
        let remaining = max(0, goal.target - done)
        let daysLeft = Self.daysLeft(in: interval, now: now, calendar: calendar)
        let reached = done >= goal.target
        let perDay = reached || daysLeft == 0 ? nil : remaining / Double(daysLeft)
        (self.remaining, self.daysLeft, self.reached) = (remaining, daysLeft, reached)
        _perDayToGo = NullWhenAbsent(wrappedValue: perDay)
        _reachedAt = NullWhenAbsent(wrappedValue: reachedAt)
        text = GoalText.progress(
            done: done, target: goal.target, metric: goal.metric, daysLeft: daysLeft, perDay: perDay,
            reached: reached, units: units)
    }

    /// Days from `now`'s day to the last day of `interval`, both included, counted on the calendar (a day with a
    /// daylight-saving change is one day).
    static func daysLeft(in interval: DateInterval, now: Date, calendar: Calendar) -> Int {
        guard now < interval.end else { return 0 }
        let today = calendar.startOfDay(for: max(now, interval.start))
        return max(1, calendar.dateComponents([.day], from: today, to: interval.end).day ?? 1)
    }
}

/// Goals in words, in the configured units.
package enum GoalText {
    /// "50 km a week (run)", "5:00:00 a month (ride)".
    package static func title(_ goal: Goal, units: UnitSystem) -> String {
        "\(amount(goal.target, metric: goal.metric, units: units, withUnit: true)) a \(goal.period.rawValue) (\(goal.activity.rawValue))"
    }

    /// "38.2 of 50 km, 4 days left, 2.9 km a day to go"; "52.1 of 50 km, reached"; "3.0 of 50 km, over".
    static func progress(
        done: Double, target: Double, metric: GoalMetric, daysLeft: Int, perDay: Double?, reached: Bool,
        units: UnitSystem
    ) -> String {
        let head =
            "\(amount(done, metric: metric, units: units, withUnit: false)) of \(amount(target, metric: metric, units: units, withUnit: true))"
        if reached { return "\(head), reached" }
        guard daysLeft > 0, let perDay else { return "\(head), not reached" }
        let days = daysLeft == 1 ? "1 day left" : "\(daysLeft) days left"
        return "\(head), \(days), \(amount(perDay, metric: metric, units: units, withUnit: true)) a day to go"
    }

    /// A distance in km or miles with one decimal (none for whole targets), or a duration as h:mm:ss.
    static func amount(_ value: Double, metric: GoalMetric, units: UnitSystem, withUnit: Bool) -> String {
        switch metric {
        case .time:
            return TimeFormat.duration(seconds: value)
        case .distance:
            let inUnit = value / (units == .metric ? 1000 : UnitSystem.metresPerMile)
            let rounded = (inUnit * 10).rounded() / 10
            let number =
                rounded == rounded.rounded() && rounded >= 10
                ? NumberText.fixed(rounded, decimals: 0) : NumberText.fixed(rounded, decimals: 1)
            return withUnit ? "\(number) \(units == .metric ? "km" : "mi")" : number
        }
    }
}
