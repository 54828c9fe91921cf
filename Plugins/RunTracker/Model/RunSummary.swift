import Foundation
import GRDB
import MeridianCore

/// Where a run is in its life. Stored in `runs.state`.
package enum RunState: String, Sendable, Codable, CaseIterable {
    /// Recording fixes.
    case tracking
    /// Paused by the user or by auto-pause; fixes are kept but not counted.
    case paused
    /// Finished and saved.
    case stopped
    /// Stopped while too short to save (under 60 s or 100 m): kept so it can be discarded or resumed.
    case draft

    /// True while the run is the active one (tracking or paused).
    package var isActive: Bool { self == .tracking || self == .paused }
}

/// The run object of the HTTP API and the CLI (`--json`), one row of table `runs`.
///
/// All numbers are SI: metres, seconds, metres per second, seconds per kilometre.
/// JSON keys (with `MeridianJSON`): `id`, `name`, `notes`, `activity`, `state`,
/// `started_at`, `ended_at`, `distance_m`, `elapsed_s`, `timer_s`, `moving_s`,
/// `avg_pace_s_per_km` (null without distance), `max_speed_mps`, `ascent_m`,
/// `descent_m`, `points`, `rejected_points`, `segments`, `distance_source`,
/// `avg_heart_rate_bpm`, `max_heart_rate_bpm`, `avg_cadence_spm`, `avg_power_w`,
/// `device_name`, `device_distance_m`, `device_timer_s` (null when unknown), `salvaged_at_byte` and
/// `salvage_reason` (null unless the run was salvaged from a damaged file).
package struct RunSummary: Sendable, Equatable, Codable {
    package var id: String
    package var name: String
    package var notes: String
    package var activity: Activity
    package var state: RunState
    package var startedAt: Date
    /// When the run was stopped; `nil` while it is active.
    package var endedAt: Date?
    /// Geodesic distance over accepted points, metres.
    package var distance: Double
    /// Wall time from start to end (or to now), seconds.
    package var elapsedTime: Double
    /// Elapsed time minus pauses (manual and automatic), seconds.
    package var timerTime: Double
    /// Time spent moving (speed at or above the activity's moving threshold), seconds.
    package var movingTime: Double
    /// Timer time per kilometre, seconds; `nil` before any distance.
    package var averagePace: Double?
    /// Highest smoothed speed, m/s.
    package var maxSpeed: Double
    /// Elevation gain and loss of the smoothed altitude, metres.
    package var ascent: Double
    package var descent: Double
    /// Points received (accepted and rejected), of which rejected.
    package var pointCount: Int
    package var rejectedPointCount: Int
    /// Number of segments (pauses and unbridged jumps start new ones).
    package var segmentCount: Int
    /// What the distance was measured with.
    package var distanceSource: DistanceSource
    /// Heart rate while the timer ran: time-weighted average and maximum, beats per minute.
    package var averageHeartRate: Double?
    package var maxHeartRate: Double?
    /// Time-weighted average cadence: steps per minute (revolutions per minute for rides).
    package var averageCadence: Double?
    /// Time-weighted average power, watts.
    package var averagePower: Double?
    /// For a run imported from a device's file: the device and the totals it computed itself.
    package var device: DeviceFigures?
    /// For a run salvaged from a damaged file (`runs import --salvage`): where the readable part ends and why.
    package var salvaged: SalvageMark?

    package init(
        id: String, name: String, notes: String = "", activity: Activity, state: RunState, startedAt: Date,
        endedAt: Date? = nil, distance: Double = 0, elapsedTime: Double = 0, timerTime: Double = 0,
        movingTime: Double = 0, averagePace: Double? = nil, maxSpeed: Double = 0, ascent: Double = 0,
        descent: Double = 0, pointCount: Int = 0, rejectedPointCount: Int = 0, segmentCount: Int = 0,
        distanceSource: DistanceSource = .none, averageHeartRate: Double? = nil, maxHeartRate: Double? = nil,
        averageCadence: Double? = nil, averagePower: Double? = nil, device: DeviceFigures? = nil
    ) {
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
        self.distanceSource = distanceSource
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.averageCadence = averageCadence
        self.averagePower = averagePower
        self.device = device
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
        case distanceSource
        case averageHeartRate = "avgHeartRateBpm"
        case maxHeartRate = "maxHeartRateBpm"
        case averageCadence = "avgCadenceSpm"
        case averagePower = "avgPowerW"
        case deviceName
        case deviceDistance = "deviceDistanceM"
        case deviceTimer = "deviceTimerS"
        case salvagedAtByte, salvageReason
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            notes: try container.decode(String.self, forKey: .notes),
            activity: try container.decode(Activity.self, forKey: .activity),
            state: try container.decode(RunState.self, forKey: .state),
            startedAt: try container.decode(Date.self, forKey: .startedAt),
            endedAt: try container.decodeIfPresent(Date.self, forKey: .endedAt),
            distance: try container.decode(Double.self, forKey: .distance),
            elapsedTime: try container.decode(Double.self, forKey: .elapsedTime),
            timerTime: try container.decode(Double.self, forKey: .timerTime),
            movingTime: try container.decode(Double.self, forKey: .movingTime),
            averagePace: try container.decodeIfPresent(Double.self, forKey: .averagePace),
            maxSpeed: try container.decode(Double.self, forKey: .maxSpeed),
            ascent: try container.decode(Double.self, forKey: .ascent),
            descent: try container.decode(Double.self, forKey: .descent),
            pointCount: try container.decode(Int.self, forKey: .pointCount),
            rejectedPointCount: try container.decode(Int.self, forKey: .rejectedPointCount),
            segmentCount: try container.decode(Int.self, forKey: .segmentCount),
            distanceSource: try container.decode(DistanceSource.self, forKey: .distanceSource),
            averageHeartRate: try container.decodeIfPresent(Double.self, forKey: .averageHeartRate),
            maxHeartRate: try container.decodeIfPresent(Double.self, forKey: .maxHeartRate),
            averageCadence: try container.decodeIfPresent(Double.self, forKey: .averageCadence),
            averagePower: try container.decodeIfPresent(Double.self, forKey: .averagePower),
            device: try DeviceFigures(
                name: container.decodeIfPresent(String.self, forKey: .deviceName),
                distance: container.decodeIfPresent(Double.self, forKey: .deviceDistance),
                timerTime: container.decodeIfPresent(Double.self, forKey: .deviceTimer)))
        salvaged = try SalvageMark(
            byteOffset: container.decodeIfPresent(Int.self, forKey: .salvagedAtByte),
            reason: container.decodeIfPresent(String.self, forKey: .salvageReason))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(notes, forKey: .notes)
        try container.encode(activity, forKey: .activity)
        try container.encode(state, forKey: .state)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt)  // explicit null while active
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
        try container.encode(distanceSource, forKey: .distanceSource)
        try container.encode(averageHeartRate, forKey: .averageHeartRate)
        try container.encode(maxHeartRate, forKey: .maxHeartRate)
        try container.encode(averageCadence, forKey: .averageCadence)
        try container.encode(averagePower, forKey: .averagePower)
        try container.encode(device?.name, forKey: .deviceName)
        try container.encode(device?.distance, forKey: .deviceDistance)
        try container.encode(device?.timerTime, forKey: .deviceTimer)
        try container.encode(salvaged?.byteOffset, forKey: .salvagedAtByte)
        try container.encode(salvaged?.reason, forKey: .salvageReason)
    }
}

// MARK: - Reading rows of `runs`

extension RunSummary {
    /// The columns `init(row:)` reads, for `SELECT \(RunSummary.columns) FROM runs …`.
    package static let columns = """
        id, name, notes, activity, state, started_at, ended_at, distance_m, elapsed_s, timer_s, moving_s, \
        avg_pace_s_per_km, max_speed_mps, ascent_m, descent_m, points, rejected_points, segments, distance_source, \
        avg_heart_rate_bpm, max_heart_rate_bpm, avg_cadence_spm, avg_power_w, device_name, device_distance_m, device_timer_s, \
        salvaged_at_byte, salvage_reason
        """

    /// Decodes one row selected with `columns`; unknown activity or state text is a `RunStoreError.corruptRow`.
    package init(row: Row) throws {
        let id: String = row["id"]
        let activityText: String = row["activity"]
        let stateText: String = row["state"]
        guard let activity = Activity(rawValue: activityText) else {
            throw RunStoreError.corruptRow(runID: id, detail: "unknown activity '\(activityText)'")
        }
        guard let state = RunState(rawValue: stateText) else {
            throw RunStoreError.corruptRow(runID: id, detail: "unknown state '\(stateText)'")
        }
        let sourceText: String = row["distance_source"] ?? DistanceSource.none.rawValue
        guard let distanceSource = DistanceSource(rawValue: sourceText) else {
            throw RunStoreError.corruptRow(runID: id, detail: "unknown distance source '\(sourceText)'")
        }
        self.init(
            id: id, name: row["name"], notes: row["notes"] ?? "", activity: activity, state: state,
            startedAt: Date(timeIntervalSince1970: row["started_at"]),
            endedAt: (row["ended_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            distance: row["distance_m"] ?? 0, elapsedTime: row["elapsed_s"] ?? 0, timerTime: row["timer_s"] ?? 0,
            movingTime: row["moving_s"] ?? 0, averagePace: row["avg_pace_s_per_km"],
            maxSpeed: row["max_speed_mps"] ?? 0,
            ascent: row["ascent_m"] ?? 0, descent: row["descent_m"] ?? 0, pointCount: row["points"] ?? 0,
            rejectedPointCount: row["rejected_points"] ?? 0, segmentCount: row["segments"] ?? 0,
            distanceSource: distanceSource, averageHeartRate: row["avg_heart_rate_bpm"],
            maxHeartRate: row["max_heart_rate_bpm"],
            averageCadence: row["avg_cadence_spm"], averagePower: row["avg_power_w"],
            device: DeviceFigures(
                name: row["device_name"], distance: row["device_distance_m"], timerTime: row["device_timer_s"]))
        salvaged = SalvageMark(byteOffset: row["salvaged_at_byte"], reason: row["salvage_reason"])
    }

    /// The run `id` (deleted runs included), or `nil`.
    package static func fetch(_ db: Database, id: String) throws -> RunSummary? {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM runs WHERE id = ?", arguments: [id]) else {
            return nil
        }
        return try RunSummary(row: row)
    }

    /// Runs matching an SQL condition on `runs` (e.g. `"deleted_at IS NULL AND state = ?"`), newest first.
    package static func fetchAll(
        _ db: Database, where condition: String = "deleted_at IS NULL",
        arguments: StatementArguments = []
    ) throws -> [RunSummary] {
        let sql = "SELECT \(columns) FROM runs WHERE \(condition) ORDER BY started_at DESC"
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try RunSummary(row: $0) }
    }
}
