import Foundation
import MeridianCore

/// `GET /v1/runs/active`: the active run with live metrics, SI numbers and texts in the configured units.
/// Every key is always present; unknown values are `null`.
public struct LiveStatus: Sendable, Encodable, Equatable {
    public var run: RunSummary
    public var autoPaused: Bool
    /// True until the first usable fix of the run.
    public var waitingForGps: Bool
    /// From the last fix's horizontal accuracy; `nil` before any fix with an accuracy, and while the last fix is
    /// older than `signalFreshFor` (the provider stopped or lost the sky: its last quality is no longer the signal).
    @NullWhenAbsent public var signalQuality: SignalQuality?
    /// Seconds since the run's last fix; `nil` before the first.
    @NullWhenAbsent public var lastFixAgeS: Double?
    @NullWhenAbsent public var horizontalAccuracyM: Double?
    /// Smoothed over about 30 s; `nil` until enough data.
    @NullWhenAbsent public var currentSpeedMps: Double?
    /// `nil` when standing or unknown.
    @NullWhenAbsent public var currentPaceSPerKm: Double?
    public var currentSplit: CurrentSplit
    public var splits: [Split]
    public var movementPattern: MovementPattern
    public var samplingPolicy: SamplingPolicy
    public var power: PowerReport
    /// Points held in memory because the store refused the last write (busy, full); `nil` while writes succeed.
    @NullWhenAbsent public var pendingWrites: PendingWrites? = nil
    /// A short state line for people ("waiting for GPS", "auto-paused", "tracking"…).
    public var message: String
    public var text: Texts

    /// The split in progress.
    public struct CurrentSplit: Sendable, Encodable, Equatable {
        public var index: Int
        public var distanceM: Double
        public var timeS: Double
    }

    /// Battery state as read from sysfs.
    public struct PowerReport: Sendable, Encodable, Equatable {
        public var state: PowerState
        /// `nil` without a battery.
        @NullWhenAbsent public var capacityPercent: Double?
        public var charging: Bool
    }

    /// Everything formatted for people in the configured units.
    public struct Texts: Sendable, Encodable, Equatable {
        public var distance: String
        public var elapsed: String
        public var timer: String
        public var moving: String
        public var pace: String
        public var averagePace: String
        public var speed: String
        public var maxSpeed: String
        public var ascent: String
        public var descent: String
        public var split: String
    }
}

extension LiveStatus {
    /// How long a fix's accuracy stands for the signal, seconds: five missed fixes at 1 Hz.
    public static let signalFreshFor = 5.0

    /// The status of `engine` at `now`.
    public init(engine: RunEngine, now: Date, power: PowerSupply.Reading, units: UnitSystem) {
        let state = engine.state
        let run = engine.summary(at: now)
        let speed = engine.currentSpeed
        let pace = speed.flatMap { $0 >= 0.5 ? 1000 / $0 : nil }
        let completed = state.completedSplits
        let split = CurrentSplit(index: completed.count + 1,
                                 distanceM: max(0, state.distance - completed.reduce(0) { $0 + $1.distance }),
                                 timeS: max(0, run.timerTime - completed.reduce(0) { $0 + $1.time }))
        let fixAge = state.lastFixTime.map { max(0, now.timeIntervalSince1970 - $0) }
        let fresh = fixAge.map { $0 <= Self.signalFreshFor } ?? false
        let message: String
        if state.waitingForGPS { message = "waiting for GPS" }
        else if state.state == .paused { message = state.autoPaused ? "auto-paused" : "paused" }
        else { message = "tracking" }
        self.init(
            run: run, autoPaused: state.autoPaused, waitingForGps: state.waitingForGPS,
            signalQuality: fresh ? SignalQuality(horizontalAccuracy: state.lastAccuracy) : nil, lastFixAgeS: fixAge,
            horizontalAccuracyM: state.lastAccuracy,
            currentSpeedMps: speed, currentPaceSPerKm: pace, currentSplit: split, splits: completed,
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
                split: "\(split.index): \(DistanceFormat.string(metres: split.distanceM, units: units)) in \(TimeFormat.duration(seconds: split.timeS))"))
    }
}

/// Elevation differences for people: whole metres or whole feet.
public enum ElevationText {
    public static func string(metres: Double, units: UnitSystem) -> String {
        guard metres.isFinite else { return "--" }
        switch units {
        case .metric: return "\(NumberText.fixed(metres, decimals: 0)) m"
        case .imperial: return "\(NumberText.fixed(metres / UnitSystem.metresPerFoot, decimals: 0)) ft"
        }
    }
}
