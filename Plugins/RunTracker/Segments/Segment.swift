import Foundation
import MeridianCore

/// A named stretch of path to race on. JSON: `{"id", "name", "activity", "distance_m", "source_run_id",
/// "created_at", "start", "finish", "path", "effort_count", "best"}`; `start`, `finish` and the points of `path`
/// are `[lat, lon]` (latitude first, as in a run's analysis), `best` is the fastest effort or `null`.
package struct Segment: Sendable, Equatable, Encodable {
    package var id: Int64
    package var name: String
    /// Efforts come from runs of this activity (the activity of the run the segment was taken from).
    package var activity: Activity
    package var distance: Double
    /// The run the path was taken from (the segment stays when that run is deleted).
    package var sourceRunID: String
    package var createdAt: Date
    package var path: [Coordinate]
    package var effortCount: Int
    @NullWhenAbsent package var best: SegmentEffort?
    /// The path's ends (nil where a privacy zone hides them, see `hiding`).
    package var start: Coordinate?
    package var finish: Coordinate?

    /// The segment as it is shown: the points of its path inside a privacy zone left out, and its start or finish
    /// nil when a zone hides it (its distance and efforts stay).
    package func hiding(_ zones: PrivacyZones) -> Segment {
        guard !zones.isEmpty else { return self }
        var shown = self
        shown.path = path.filter { !zones.hides($0) }
        shown.start = start.flatMap { zones.hides($0) ? nil : $0 }
        shown.finish = finish.flatMap { zones.hides($0) ? nil : $0 }
        return shown
    }

    enum CodingKeys: String, CodingKey {
        case id, name, activity
        case distance = "distanceM"
        case sourceRunID = "sourceRunId"
        case createdAt, start, finish, path, effortCount, best
    }

    package func encode(to encoder: any Encoder) throws {
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
package struct SegmentEffort: Sendable, Equatable, Codable {
    package var rank: Int
    package var runID: String
    package var runName: String
    package var startedAt: Date
    package var elapsedTime: Double
    /// Seconds from the run's start to the start crossing.
    package var startOffset: Double
    package var pace: Double

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
package struct SegmentEfforts: Sendable, Equatable, Encodable {
    package var segment: Segment
    package var efforts: [SegmentEffort]

    /// The same efforts of the segment as it is shown (`Segment.hiding`).
    package func hiding(_ zones: PrivacyZones) -> SegmentEfforts {
        SegmentEfforts(segment: segment.hiding(zones), efforts: efforts)
    }
}
