import Foundation

/// Everything the tracker knows about one run: enough to restore it after a crash.
/// Times are unix seconds. Stored as JSON in `runs.live_state` while the run is active.
package struct EngineState: Sendable, Equatable, Codable {
    package var runID: String
    package var name: String
    package var notes: String = ""
    package var activity: Activity
    package var state: RunState
    package var startedAt: Double
    package var endedAt: Double?

    // Pauses
    /// When the current pause began, while paused.
    package var pausedSince: Double?
    /// Whether the current pause was started by auto-pause.
    package var autoPaused = false
    /// Total length of finished pauses, seconds.
    package var pausedTotal: Double = 0
    /// Since when the speed has been below the auto-pause speed.
    var slowSince: Double?

    // Points and segments
    package var nextSequence = 0
    package var segment = 0
    package var pointCount = 0
    package var rejectedCount = 0
    package var segmentsWithPoints = 0
    var segmentHasPoints = false
    /// Time of the last received fix (any kind), for ordering.
    var lastFixTime: Double?
    /// Accuracy of the last fix with a position.
    package var lastAccuracy: Double?
    /// Last fix that passed the position, accuracy and plausibility checks.
    var lastUsable: TimedPosition?
    var lastUsableAccuracy: Double?
    /// Time of the last usable fix while tracking, for moving time.
    var lastTrackedTime: Double?
    var jumpStreak = 0
    /// The recording's usual interval between usable fixes, to tell gaps from its sampling.
    var cadence = Cadence()
    /// The receiver's position noise, which sets the spacing of route points.
    var jitter = Jitter()
    /// Distance from a wheel sensor or foot pod while the run has no GPS route.
    var sensorProgress = SensorProgress()
    /// Heart rate, cadence and power while the timer runs.
    package var sensors = SensorAverages()

    // Distance
    /// The point distance is measured from: the last route point, or the mean position before the first one.
    var anchor: TimedPosition?
    /// Number of positions averaged into `anchor` while it is still settling at the start of a segment.
    var anchorSamples = 0
    var movedInSegment = false
    var wasMoving = false
    var lastRoutePointTime: Double?
    var derived = DerivedSpeed()
    var speedWindow = SpeedWindow()
    var recentSpeeds: [Double] = []

    // Metrics
    package var distance: Double = 0
    package var movingTime: Double = 0
    package var maxSpeed: Double = 0
    /// The last speed estimate (reported or derived), m/s.
    package var instantSpeed: Double?
    var elevation = ElevationCounter()
    var splits = SplitCounter()
    package var power: PowerState = .normal
    /// The lap in progress (the lap button of a live run).
    package var laps = LapCounter()
    /// A live run's manual pauses and resumes, so that late points can be put in their place (`LiveReplay`);
    /// optional, as states stored before it have none.
    package var commandLog: [LiveCommand]?

    package init(runID: String, name: String, activity: Activity, startedAt: Double, state: RunState = .tracking) {
        self.runID = runID
        self.name = name
        self.activity = activity
        self.startedAt = startedAt
        self.state = state
    }

    /// True until the run has received its first usable fix.
    package var waitingForGPS: Bool { lastUsable == nil && segmentsWithPoints == 0 }

    /// Completed splits.
    package var completedSplits: [Split] { splits.completed }
    package var ascent: Double { elevation.ascent }
    package var descent: Double { elevation.descent }
}
