import ActivityFiles
import Foundation
import MeridianCore

/// `GET /v1/runs/active`: the active run with live metrics, SI numbers and texts in the configured units.
/// Every key is always present; unknown values are `null`.
package struct LiveStatus: Sendable, Encodable, Equatable {
    package var run: RunSummary
    package var autoPaused: Bool
    /// True until the first usable fix of the run.
    package var waitingForGps: Bool
    /// From the last fix's horizontal accuracy; `nil` before any fix with an accuracy, and while the last fix is
    /// older than `signalFreshFor` (the provider stopped or lost the sky: its last quality is no longer the signal).
    @NullWhenAbsent package var signalQuality: SignalQuality?
    /// Seconds since the run's last fix; `nil` before the first.
    @NullWhenAbsent package var lastFixAgeS: Double?
    @NullWhenAbsent package var horizontalAccuracyM: Double?
    /// Smoothed over about 30 s; `nil` until enough data.
    @NullWhenAbsent package var currentSpeedMps: Double?
    /// `nil` when standing or unknown.
    @NullWhenAbsent package var currentPaceSPerKm: Double?
    package var currentSplit: CurrentSplit
    package var splits: [Split]
    /// The laps the lap button closed, and the lap in progress.
    package var laps: [RunLap] = []
    package var currentLap: CurrentLap
    package var movementPattern: MovementPattern
    package var samplingPolicy: SamplingPolicy
    package var power: PowerReport
    /// Points held in memory because the store refused the last write (busy, full); `nil` while writes succeed.
    @NullWhenAbsent package var pendingWrites: PendingWrites? = nil
    /// A short state line for people ("waiting for GPS", "auto-paused", "tracking"…).
    package var message: String
    package var text: Texts

    /// The split in progress.
    package struct CurrentSplit: Sendable, Encodable, Equatable {
        package var index: Int
        package var distanceM: Double
        package var timeS: Double
    }

    /// The lap in progress: its number, distance and timer time so far.
    package struct CurrentLap: Sendable, Encodable, Equatable {
        package var index: Int
        package var distanceM: Double
        package var timeS: Double
    }

    /// Battery state as read from sysfs.
    package struct PowerReport: Sendable, Encodable, Equatable {
        package var state: PowerState
        /// `nil` without a battery.
        @NullWhenAbsent package var capacityPercent: Double?
        package var charging: Bool
    }

    /// Everything formatted for people in the configured units.
    package struct Texts: Sendable, Encodable, Equatable {
        package var distance: String
        package var elapsed: String
        package var timer: String
        package var moving: String
        package var pace: String
        package var averagePace: String
        package var speed: String
        package var maxSpeed: String
        package var ascent: String
        package var descent: String
        package var split: String
        package var lap: String
    }
}

extension LiveStatus {
    /// How long a fix's accuracy stands for the signal, seconds: five missed fixes at 1 Hz.
    package static let signalFreshFor = 5.0

    /// The status of `engine` at `now`, with the `laps` its lap button closed.
    package init(
        engine: RunEngine, now: Date, power: PowerSupply.Reading, units: UnitSystem, laps: [DeviceLap] = []
    ) {
        let state = engine.state
        let run = engine.summary(at: now)
        let speed = engine.currentSpeed
        let pace = speed.flatMap { $0 >= 0.5 ? 1000 / $0 : nil }
        let completed = state.completedSplits
        let split = CurrentSplit(
            index: completed.count + 1,
            distanceM: max(0, state.distance - completed.reduce(0) { $0 + $1.distance }),
            timeS: max(0, run.timerTime - completed.reduce(0) { $0 + $1.time }))
        let inLap = engine.currentLap(at: now)
        let lap = CurrentLap(index: laps.count + 1, distanceM: inLap.distance ?? 0, timeS: inLap.timerTime ?? 0)
        let fixAge = state.lastFixTime.map { max(0, now.timeIntervalSince1970 - $0) }
        let fresh = fixAge.map { $0 <= Self.signalFreshFor } ?? false
        let message: String
        if state.waitingForGPS {
            message = "waiting for GPS"
        } else if state.state == .paused {
            message = state.autoPaused ? "auto-paused" : "paused"
        } else {
            message = "tracking"
        }
        self.init(
            run: run, autoPaused: state.autoPaused, waitingForGps: state.waitingForGPS,
            signalQuality: fresh ? SignalQuality(horizontalAccuracy: state.lastAccuracy) : nil, lastFixAgeS: fixAge,
            horizontalAccuracyM: state.lastAccuracy,
            currentSpeedMps: speed, currentPaceSPerKm: pace, currentSplit: split, splits: completed,
            laps: RunLap.list(laps, runStart: run.startedAt), currentLap: lap,
            movementPattern: engine.pattern, samplingPolicy: engine.policy,
            power: PowerReport(state: power.state, capacityPercent: power.capacityPercent, charging: power.charging),
            message: message,
            text: Texts(
                distance: DistanceFormat.string(metres: run.distance, units: units),
                elapsed: TimeFormat.duration(seconds: run.elapsedTime),
                timer: TimeFormat.duration(seconds: run.timerTime),
                moving: TimeFormat.duration(seconds: run.movingTime),
                pace: TimeFormat.pace(secondsPerKilometre: pace ?? .infinity, units: units),
                averagePace: TimeFormat.pace(secondsPerKilometre: run.averagePace ?? .infinity, units: units),
                speed: TimeFormat.speed(metresPerSecond: speed ?? 0, units: units),
                maxSpeed: TimeFormat.speed(metresPerSecond: run.maxSpeed, units: units),
                ascent: ElevationText.string(metres: run.ascent, units: units),
                descent: ElevationText.string(metres: run.descent, units: units),
                split:
                    "\(split.index): \(DistanceFormat.string(metres: split.distanceM, units: units)) in \(TimeFormat.duration(seconds: split.timeS))",
                lap:
                    "\(lap.index): \(DistanceFormat.string(metres: lap.distanceM, units: units)) in \(TimeFormat.duration(seconds: lap.timeS))"
            ))
    }
}

/// Elevation differences for people: whole metres or whole feet.
package enum ElevationText {
    package static func string(metres: Double, units: UnitSystem) -> String {
        guard metres.isFinite else { return "--" }
        switch units {
        case .metric: return "\(NumberText.fixed(metres, decimals: 0)) m"
        case .imperial: return "\(NumberText.fixed(metres / UnitSystem.metresPerFoot, decimals: 0)) ft"
        }
    }
}
