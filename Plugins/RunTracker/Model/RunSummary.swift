import Foundation
import GRDB
import MeridianCore

/// Where a run is in its life. Stored in `runs.state`.
public enum RunState: String, Sendable, Codable, CaseIterable {
    /// Recording fixes.
    case tracking
    /// Paused by the user or by auto-pause; fixes are kept but not counted.
    case paused
    /// Finished and saved.
    case stopped
    /// Stopped while too short to save (under 60 s or 100 m): kept so it can be discarded or resumed.
    case draft

    /// True while the run is the active one (tracking or paused).
    public var isActive: Bool { self == .tracking || self == .paused }
}

/// The run object of the HTTP API and the CLI (`--json`), one row of table `runs`.
///
/// All numbers are SI: metres, seconds, metres per second, seconds per kilometre.
/// JSON keys (with `MeridianJSON`): `id`, `name`, `notes`, `activity`, `state`,
/// `started_at`, `ended_at`, `distance_m`, `elapsed_s`, `timer_s`, `moving_s`,
/// `avg_pace_s_per_km` (null without distance), `max_speed_mps`, `ascent_m`,
/// `descent_m`, `points`, `rejected_points`, `segments`.
public struct RunSummary: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var notes: String
    public var activity: Activity
    public var state: RunState
    public var startedAt: Date
    /// When the run was stopped; `nil` while it is active.
    public var endedAt: Date?
    /// Geodesic distance over accepted points, metres.
    public var distance: Double
    /// Wall time from start to end (or to now), seconds.
    public var elapsedTime: Double
    /// Elapsed time minus pauses (manual and automatic), seconds.
    public var timerTime: Double
    /// Time spent moving (speed at or above the activity's moving threshold), seconds.
    public var movingTime: Double
    /// Timer time per kilometre, seconds; `nil` before any distance.
    public var averagePace: Double?
    /// Highest smoothed speed, m/s.
    public var maxSpeed: Double
    /// Elevation gain and loss of the smoothed altitude, metres.
    public var ascent: Double
    public var descent: Double
    /// Points received (accepted and rejected), of which rejected.
    public var pointCount: Int
    public var rejectedPointCount: Int
    /// Number of segments (pauses and signal gaps start new ones).
    public var segmentCount: Int

    public init(id: String, name: String, notes: String = "", activity: Activity, state: RunState, startedAt: Date,
                endedAt: Date? = nil, distance: Double = 0, elapsedTime: Double = 0, timerTime: Double = 0,
                movingTime: Double = 0, averagePace: Double? = nil, maxSpeed: Double = 0, ascent: Double = 0,
                descent: Double = 0, pointCount: Int = 0, rejectedPointCount: Int = 0, segmentCount: Int = 0) {
        self.id = id
        self.name = name
        self.notes = notes
        self.activity = activity
        self.state = state
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.distance = distance
        self.elapsedTime = elapsedTime
        self.timerTime = timerTime
        self.movingTime = movingTime
        self.averagePace = averagePace
        self.maxSpeed = maxSpeed
        self.ascent = ascent
        self.descent = descent
        self.pointCount = pointCount
        self.rejectedPointCount = rejectedPointCount
        self.segmentCount = segmentCount
    }

    // Raw values are camelCase so that MeridianJSON's snake_case conversion yields the documented keys both ways.
    enum CodingKeys: String, CodingKey {
        case id, name, notes, activity, state, startedAt, endedAt
        case distance = "distanceM"
        case elapsedTime = "elapsedS"
        case timerTime = "timerS"
        case movingTime = "movingS"
        case averagePace = "avgPaceSPerKm"
        case maxSpeed = "maxSpeedMps"
        case ascent = "ascentM"
        case descent = "descentM"
        case pointCount = "points"
        case rejectedPointCount = "rejectedPoints"
        case segmentCount = "segments"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(notes, forKey: .notes)
        try container.encode(activity, forKey: .activity)
        try container.encode(state, forKey: .state)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt) // explicit null while active
        try container.encode(distance, forKey: .distance)
        try container.encode(elapsedTime, forKey: .elapsedTime)
        try container.encode(timerTime, forKey: .timerTime)
        try container.encode(movingTime, forKey: .movingTime)
        try container.encode(averagePace, forKey: .averagePace)
        try container.encode(maxSpeed, forKey: .maxSpeed)
        try container.encode(ascent, forKey: .ascent)
        try container.encode(descent, forKey: .descent)
        try container.encode(pointCount, forKey: .pointCount)
        try container.encode(rejectedPointCount, forKey: .rejectedPointCount)
        try container.encode(segmentCount, forKey: .segmentCount)
    }
}

// MARK: - Reading rows of `runs`

extension RunSummary {
    /// The columns `init(row:)` reads, for `SELECT \(RunSummary.columns) FROM runs …`.
    public static let columns = """
        id, name, notes, activity, state, started_at, ended_at, distance_m, elapsed_s, timer_s, moving_s, \
        avg_pace_s_per_km, max_speed_mps, ascent_m, descent_m, points, rejected_points, segments
        """

    /// Decodes one row selected with `columns`; unknown activity or state text is a `RunStoreError.corruptRow`.
    public init(row: Row) throws {
        let id: String = row["id"]
        let activityText: String = row["activity"]
        let stateText: String = row["state"]
        guard let activity = Activity(rawValue: activityText) else {
            throw RunStoreError.corruptRow(runID: id, detail: "unknown activity '\(activityText)'")
        }
        guard let state = RunState(rawValue: stateText) else {
            throw RunStoreError.corruptRow(runID: id, detail: "unknown state '\(stateText)'")
        }
        self.init(
            id: id, name: row["name"], notes: row["notes"] ?? "", activity: activity, state: state,
            startedAt: Date(timeIntervalSince1970: row["started_at"]),
            endedAt: (row["ended_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            distance: row["distance_m"] ?? 0, elapsedTime: row["elapsed_s"] ?? 0, timerTime: row["timer_s"] ?? 0,
            movingTime: row["moving_s"] ?? 0, averagePace: row["avg_pace_s_per_km"], maxSpeed: row["max_speed_mps"] ?? 0,
            ascent: row["ascent_m"] ?? 0, descent: row["descent_m"] ?? 0, pointCount: row["points"] ?? 0,
            rejectedPointCount: row["rejected_points"] ?? 0, segmentCount: row["segments"] ?? 0)
    }

    /// The run `id` (deleted runs included), or `nil`.
    public static func fetch(_ db: Database, id: String) throws -> RunSummary? {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM runs WHERE id = ?", arguments: [id]) else {
            return nil
        }
        return try RunSummary(row: row)
    }

    /// Runs matching an SQL condition on `runs` (e.g. `"deleted_at IS NULL AND state = ?"`), newest first.
    public static func fetchAll(_ db: Database, where condition: String = "deleted_at IS NULL",
                                arguments: StatementArguments = [], limit: Int? = nil) throws -> [RunSummary] {
        var sql = "SELECT \(columns) FROM runs WHERE \(condition) ORDER BY started_at DESC"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try RunSummary(row: $0) }
    }
}
