import Foundation

/// A personal record of one activity: the fastest time over a record distance (or the longest activity), and the
/// run it comes from.
///
/// JSON: `{"activity": "run", "distance": "5k", "distance_m": 5000, "elapsed_s": 1500.2, "run_id": "…",
/// "achieved_at": "…", "run_name": "…", "pace_s_per_km": 300.04, "run_deleted": null, "previous_elapsed_s": null,
/// "previous_distance_m": null, "recorded_at": null}`. For `longest`, `distance_m` is the run's distance and
/// `elapsed_s` its time. The last four are set in record history entries (`previous_elapsed_s` is the time of the
/// record it beat, `previous_distance_m` the distance of the longest it beat; `null` for the first) and `null` in
/// current records: every key is always present.
package struct PersonalRecord: Sendable, Equatable, Codable {
    package var activity: Activity
    package var distance: RecordDistance
    package var distanceMetres: Double
    package var elapsedTime: Double
    package var runID: String
    /// When the effort started.
    package var achievedAt: Date
    package var runName: String
    package var pace: Double
    /// History only: the run was deleted (or purged) since; the record stays in the history.
    @NullWhenAbsent package var runDeleted: Bool?
    /// History only: the time of the record this one beat.
    @NullWhenAbsent package var previousElapsedTime: Double?
    /// History only, for `longest`: the distance of the record this one beat.
    @NullWhenAbsent package var previousDistanceMetres: Double?
    /// History only: when the record was recorded (the run's save).
    @NullWhenAbsent package var recordedAt: Date?

    package init(
        activity: Activity = .run, distance: RecordDistance, distanceMetres: Double? = nil, elapsedTime: Double,
        runID: String, achievedAt: Date, runName: String, runDeleted: Bool? = nil,
        previousElapsedTime: Double? = nil, previousDistanceMetres: Double? = nil, recordedAt: Date? = nil
    ) {
        self.activity = activity
        self.distance = distance
        self.distanceMetres = distanceMetres ?? distance.metres
        self.elapsedTime = elapsedTime
        self.runID = runID
        self.achievedAt = achievedAt
        self.runName = runName
        self.pace =
            self.distanceMetres > 0 && self.distanceMetres.isFinite ? elapsedTime / self.distanceMetres * 1000 : 0
        self.runDeleted = runDeleted
        self.previousElapsedTime = previousElapsedTime
        self.previousDistanceMetres = previousDistanceMetres
        self.recordedAt = recordedAt
    }

    // camelCase raw values: MeridianJSON converts them to the documented snake_case keys.
    enum CodingKeys: String, CodingKey {
        case activity, distance
        case distanceMetres = "distanceM"
        case elapsedTime = "elapsedS"
        case runID = "runId"
        case achievedAt, runName
        case pace = "paceSPerKm"
        case runDeleted
        case previousElapsedTime = "previousElapsedS"
        case previousDistanceMetres = "previousDistanceM"
        case recordedAt
    }
}
