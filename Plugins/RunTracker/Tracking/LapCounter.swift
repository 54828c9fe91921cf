import ActivityFiles
import Foundation

/// The live run's lap in progress: where it started (time, timer, distance), its heart rate, and how many laps the
/// lap button has closed. Part of the engine state, so a restored run goes on with its lap.
package struct LapCounter: Sendable, Equatable, Codable {
    /// When the lap in progress started, unix seconds; `nil` for the first lap (it starts with the run).
    var start: Double?
    var timerAtStart = 0.0
    var distanceAtStart = 0.0
    /// Heart rate while the timer runs in this lap.
    var heartRate = SensorAverages.Channel()
    /// Laps closed so far.
    package var count = 0
}

extension LapCounter: AddedStatePart {}

extension RunEngine {
    /// The lap in progress at `date`: its start, timer time and distance so far, heart rate, and `trigger`.
    package func currentLap(at date: Date, trigger: LapTrigger = .manual) -> DeviceLap {
        let laps = state.laps
        return DeviceLap(
            start: Date(timeIntervalSince1970: laps.start ?? state.startedAt),
            timerTime: max(0, timer(at: date.timeIntervalSince1970) - laps.timerAtStart),
            distance: max(0, state.distance - laps.distanceAtStart), averageHeartRate: laps.heartRate.average,
            maxHeartRate: laps.heartRate.maximum, trigger: trigger)
    }

    /// The lap button: closes the lap in progress at `date` (trigger manual) and starts the next one there.
    package mutating func lap(at date: Date) throws(RunCommandError) -> DeviceLap {
        guard state.state.isActive else { throw .notActive(id: state.runID, state: state.state, command: "lap") }
        return closeLap(at: max(date, Date(timeIntervalSince1970: state.startedAt)), trigger: .manual)
    }

    /// The last lap of a saved run whose lap button was used, closed at the run's end (trigger session_end), so the
    /// laps cover the whole run as a device's do; `nil` when the button was never used or the run is not saved.
    package mutating func finalLap() -> DeviceLap? {
        guard state.laps.count > 0, state.state == .stopped, let end = state.endedAt else { return nil }
        return closeLap(at: Date(timeIntervalSince1970: end), trigger: .sessionEnd)
    }

    private mutating func closeLap(at date: Date, trigger: LapTrigger) -> DeviceLap {
        let lap = currentLap(at: date, trigger: trigger)
        updateLaps(
            LapCounter(
                start: date.timeIntervalSince1970, timerAtStart: timer(at: date.timeIntervalSince1970),
                distanceAtStart: state.distance, count: state.laps.count + 1))
        return lap
    }
}
