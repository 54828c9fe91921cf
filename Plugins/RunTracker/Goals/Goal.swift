import Foundation
import MeridianCore

/// What a goal counts: distance (metres) or moving time (seconds), the same figures as `runs stats`.
package enum GoalMetric: String, Sendable, Codable, CaseIterable {
    case distance, time
}

/// A target of distance or time per week, month or year for one activity (table `goals`).
package struct Goal: Sendable, Equatable, Encodable {
    package var id: Int64
    package var activity: Activity
    package var period: StatsPeriod
    package var metric: GoalMetric
    /// Metres or seconds.
    package var target: Double
    package var createdAt: Date

    package init(
        id: Int64, activity: Activity, period: StatsPeriod, metric: GoalMetric, target: Double, createdAt: Date
    ) {
        self.id = id
        self.activity = activity
        self.period = period
        self.metric = metric
        self.target = target
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, activity, period, distanceM, timeS, createdAt
    }

    /// `{"id", "activity", "period", "distance_m", "time_s", "created_at"}`: one of `distance_m` and `time_s` is null.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(activity, forKey: .activity)
        try container.encode(period, forKey: .period)
        try container.encode(metric == .distance ? target : nil, forKey: .distanceM)
        try container.encode(metric == .time ? target : nil, forKey: .timeS)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// A new goal as `POST /v1/goals` takes it: `{"period", "activity", "distance_m"}` or `{"period", "activity",
/// "time_s"}` (activity defaults to run); any other key is an error.
package struct GoalRequest: Sendable, Equatable, Decodable {
    package var activity: Activity
    package var period: StatsPeriod
    package var metric: GoalMetric
    package var target: Double

    /// Checks the values; the messages name the field as `names` calls it (`--distance`, `distance_m`).
    package init(
        activity: Activity, period: StatsPeriod, distance: Double?, time: Double?,
        names: (distance: String, time: String)
    ) throws(RunHistoryError) {
        self.activity = activity
        self.period = period
        switch (distance, time) {
        case (let metres?, nil):
            guard metres.isFinite, metres > 0, metres <= 1e8 else {
                throw .invalid(
                    field: names.distance, message: "a distance goal must be more than 0 (and below 100,000 km)")
            }
            (metric, target) = (.distance, metres)
        case (nil, let seconds?):
            guard seconds.isFinite, seconds > 0, seconds <= 366 * 86_400 else {
                throw .invalid(field: names.time, message: "a time goal must be more than 0 and at most a year")
            }
            (metric, target) = (.time, seconds)
        default:
            throw .invalid(
                field: "\(names.distance)/\(names.time)", message: "give either a distance or a time, not both or none")
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let allowed = ["period", "activity", "distanceM", "timeS"]
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw RunHistoryError.invalid(
                field: "body",
                message: "unknown key '\(unknown.stringValue)'; a goal takes period, activity and distance_m or time_s")
        }
        let period = try StatsPeriod.parse(container.decode(String.self, forKey: Key("period")), field: "period")
        let activity = try container.decodeIfPresent(String.self, forKey: Key("activity")).map {
            text throws(RunHistoryError) in try RunFilter.parseActivity(text, field: "activity")
        }
        try self.init(
            activity: activity ?? .run, period: period,
            distance: container.decodeIfPresent(Double.self, forKey: Key("distanceM")),
            time: container.decodeIfPresent(Double.self, forKey: Key("timeS")), names: ("distance_m", "time_s"))
    }
}
