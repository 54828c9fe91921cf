import Foundation
import MeridianCore

/// A named stretch of path to race on. JSON: `{"id", "name", "activity", "distance_m", "source_run_id",
/// "created_at", "start", "finish", "path", "effort_count", "best"}`; `start`, `finish` and the points of `path`
/// are `[lat, lon]` (latitude first, as in a run's analysis), `best` is the fastest effort or `null`.
public struct Segment: Sendable, Equatable, Encodable {
    public var id: Int64
    public var name: String
    /// Efforts come from runs of this activity (the activity of the run the segment was taken from).
    public var activity: Activity
    public var distance: Double
    /// The run the path was taken from (the segment stays when that run is deleted).
    public var sourceRunID: String
    public var createdAt: Date
    public var path: [Coordinate]
    public var effortCount: Int
    @NullWhenAbsent public var best: SegmentEffort?

    public var start: Coordinate? { path.first }
    public var finish: Coordinate? { path.last }

    enum CodingKeys: String, CodingKey {
        case id, name, activity
        case distance = "distanceM"
        case sourceRunID = "sourceRunId"
        case createdAt, start, finish, path, effortCount, best
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(activity, forKey: .activity)
        try container.encode(distance, forKey: .distance)
        try container.encode(sourceRunID, forKey: .sourceRunID)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(start.map(Self.pair), forKey: .start)
        try container.encode(finish.map(Self.pair), forKey: .finish)
        try container.encode(path.map(Self.pair), forKey: .path)
        try container.encode(effortCount, forKey: .effortCount)
        try container.encode(_best, forKey: .best)
    }

    static func pair(_ coordinate: Coordinate) -> [Double] { [coordinate.latitude, coordinate.longitude] }
}

/// One effort on a segment: `{"rank", "run_id", "run_name", "started_at", "elapsed_s", "start_offset_s",
/// "pace_s_per_km"}`. `started_at` is when the run crossed the segment's start; the rank is by elapsed time among
/// the efforts of saved runs, 1 for the fastest.
public struct SegmentEffort: Sendable, Equatable, Codable {
    public var rank: Int
    public var runID: String
    public var runName: String
    public var startedAt: Date
    public var elapsedTime: Double
    /// Seconds from the run's start to the start crossing.
    public var startOffset: Double
    public var pace: Double

    enum CodingKeys: String, CodingKey {
        case rank
        case runID = "runId"
        case runName, startedAt
        case elapsedTime = "elapsedS"
        case startOffset = "startOffsetS"
        case pace = "paceSPerKm"
    }
}

/// A segment with its efforts ranked: `{"segment", "efforts"}`.
public struct SegmentEfforts: Sendable, Equatable, Encodable {
    public var segment: Segment
    public var efforts: [SegmentEffort]
}
