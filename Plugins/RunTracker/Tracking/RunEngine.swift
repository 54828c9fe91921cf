import Foundation
import MeridianCore

/// The tracking engine: a pure value type. Feed it fixes and commands with their
/// times; read metrics. It does no I/O, so it runs the same live, on import and in tests.
///
/// Pipeline per fix: order → position → accuracy → plausible speed from the last good fix
/// (however long ago) → gap or ordinary interval (judged against the recording's own cadence) →
/// pause → auto-pause → drift / sampling policy → distance and metrics. A gap while the
/// timer runs adds the straight line when its speed is a moving one. Only pauses and
/// unbridged jumps start a new segment. Every fix becomes a `TrackPoint`; those not on
/// the route carry the reason.
package struct RunEngine: Sendable {
    /// A run needs at least this much timer time to be saved, seconds…
    package static let minimumSavedDuration = 60.0
    /// …and at least this distance, metres.
    package static let minimumSavedDistance = 100.0

    package let settings: TrackerSettings
    package private(set) var state: EngineState
    /// The limits of the run's activity (looked up once: they are read several times per fix).
    private let profile: ActivityProfile

    /// Starts a new run at `startedAt` (it may begin before the first fix).
    package init(
        runID: String, name: String, activity: Activity, startedAt: Date, settings: TrackerSettings = TrackerSettings()
    ) {
        self.settings = settings
        profile = settings.profile(activity)
        state = EngineState(runID: runID, name: name, activity: activity, startedAt: startedAt.timeIntervalSince1970)
    }

    /// Continues a run from its saved state. The downtime breaks the segment: no distance is invented across it.
    package init(restoring saved: EngineState, settings: TrackerSettings = TrackerSettings()) {
        self.settings = settings
        profile = settings.profile(saved.activity)
        state = saved
        if state.state.isActive { breakSegment() }
    }

    /// Takes over what a replay of `saved` keeps as it was: notes, battery state and the command log.
    mutating func carryOver(from saved: EngineState) {
        state.notes = saved.notes
        state.power = saved.power
        state.commandLog = saved.commandLog
    }

    /// Takes the name and notes the run was given by an edit of its stored row.
    mutating func takeEdit(name: String, notes: String) {
        state.name = name
        state.notes = notes
    }

    /// Notes a manual pause or resume at `date` in the command log (live runs).
    mutating func log(_ kind: LiveCommand.Kind, at date: Date) {
        state.commandLog = (state.commandLog ?? []) + [LiveCommand(kind: kind, time: date.timeIntervalSince1970)]
    }

    // MARK: Fixes

    /// Processes one fix, with what the athlete's sensors measured at the same time, and returns it as a track
    /// point (with a rejection reason when it is not on the route).
    package mutating func feed(_ fix: Fix, sensors: SensorReading = .none) -> TrackPoint {
        let time = fix.time.timeIntervalSince1970
        var point = TrackPoint(
            sequence: state.nextSequence, time: fix.time, coordinate: fix.coordinate,
            altitude: fix.altitude, speed: fix.speed, horizontalAccuracy: fix.horizontalAccuracy,
            segment: state.segment,
            sensors: SensorReading(
                heartRate: sensors.heartRate, cadence: sensors.cadence,
                power: sensors.power, temperature: sensors.temperature))
        state.nextSequence += 1
        state.pointCount += 1
        var rejection = classify(fix, time: time)
        if rejection == .noPosition, measureSensorDistance(sensors, reportedSpeed: fix.speed, time: time) {
            rejection = nil
        }
        if rejection != .outOfOrder, state.state == .tracking {
            state.sensors.add(sensors, at: time)
            state.laps.heartRate.add(sensors.heartRate, at: time)
        }
        point.rejection = rejection
        point.segment = state.segment
        point.distance = rejection == nil ? state.distance : nil
        if rejection != nil { state.rejectedCount += 1 }
        return point
    }

    /// Replaces the lap in progress (`LapCounter`).
    mutating func updateLaps(_ laps: LapCounter) {
        state.laps = laps
    }

    /// Sets the battery state used by the sampling policy.
    package mutating func setPower(_ power: PowerState) {
        state.power = power
    }

    private mutating func classify(_ fix: Fix, time: Double) -> PointRejection? {
        if let last = state.lastFixTime, time <= last { return .outOfOrder }
        state.lastFixTime = time
        guard fix.hasPosition, let coordinate = fix.coordinate else { return .noPosition }
        if let accuracy = fix.horizontalAccuracy, accuracy.isFinite { state.lastAccuracy = accuracy }
        if let accuracy = fix.horizontalAccuracy, !(accuracy <= settings.maxAccuracy) { return .poorAccuracy }
        let position = TimedPosition(time: time, coordinate: coordinate)
        // Both positions may be off by their accuracy: only movement beyond that must be explained by speed.
        let uncertainty =
            (state.lastUsableAccuracy ?? settings.assumedAccuracy)
            + (fix.horizontalAccuracy ?? settings.assumedAccuracy)

        // The jump check compares with the last good fix however long ago it was: a gap never resets it.
        if let last = state.lastUsable, let lastCoordinate = last.coordinate,
            Self.needsSpeed(
                from: lastCoordinate, to: coordinate, allowing: uncertainty, in: time - last.time,
                above: profile.maxSpeed)
        {
            state.jumpStreak += 1
            guard state.jumpStreak >= settings.jumpResetCount else { return .implausibleJump }
            // The receiver keeps insisting: believe it, without distance across the jump.
            breakSegment()
        }
        state.jumpStreak = 0
        let gap = gapSpeed(to: position, uncertainty: uncertainty)
        let previousUsableTime = state.lastUsable?.time
        if let previousUsableTime { state.cadence.add(time - previousUsableTime) }
        state.lastUsable = position
        state.lastUsableAccuracy = fix.horizontalAccuracy
        state.derived.add(position, halfWindow: settings.derivedSpeedHalfWindow)
        state.jitter.add(position)
        let speed =
            fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            ?? state.derived.speed(halfWindow: settings.derivedSpeedHalfWindow)
        state.instantSpeed = speed
        if let speed {
            state.recentSpeeds.append(speed)
            if state.recentSpeeds.count > settings.patternSamples { state.recentSpeeds.removeFirst() }
        }
        // The speed over the interval this fix closes: across a gap, the straight line over it.
        let intervalSpeed = gap ?? speed

        if state.state == .paused {
            guard state.autoPaused, profile.autoPause, let intervalSpeed,
                intervalSpeed > profile.autoResumeSpeed
                    || (intervalSpeed >= profile.movingSpeed
                        && hasLeftTheStop(position, accuracy: fix.horizontalAccuracy))
            else {
                return .paused
            }
            // Movement began after the previous (slow) fix: the pause ends there.
            endPause(at: previousUsableTime ?? time)
        }
        guard state.state == .tracking else { return .paused }

        if let altitude = fix.altitude {
            state.elevation.add(
                altitude, points: settings.altitudeSmoothingPoints, hysteresis: settings.elevationHysteresis)
        }
        let previousTrackedTime = state.lastTrackedTime
        let rejection = measureDistance(
            position, fix: fix, speed: speed, reportedSpeed: fix.speed != nil, gapSpeed: gap)
        recordProgress(at: time, intervalSpeed: intervalSpeed, previous: previousTrackedTime)
        return rejection
    }

    /// Everything that follows a tracked fix, from GPS or from a sensor: moving time (the interval since the
    /// previous tracked fix counts when the speed closing it is a moving speed), current and maximum speed,
    /// splits and auto-pause.
    private mutating func recordProgress(at time: Double, intervalSpeed: Double?, previous: Double?) {
        if (intervalSpeed ?? 0) >= profile.movingSpeed, let previous { state.movingTime += time - previous }
        state.lastTrackedTime = time
        state.speedWindow.add(time: time, distance: state.distance, window: settings.speedWindow)
        // Max speed only from windows at least half full, so one long step after a stop is no record.
        if let current = state.speedWindow.speed(minimumSpan: settings.speedWindow / 2) {
            state.maxSpeed = max(state.maxSpeed, current)
        }
        state.splits.add(distance: state.distance, timer: timer(at: time), length: settings.splitDistance)
        checkAutoPause(speed: intervalSpeed, time: time, previous: previous)
    }

    /// Until the run has a GPS route (indoors, on a treadmill, before the first fix), a sensor's cumulative
    /// distance (wheel sensor, foot pod) measures it. Returns whether the reading was used; nothing counts while
    /// paused, and a counter that went backwards (the sensor restarted) starts again from its new value.
    private mutating func measureSensorDistance(_ sensors: SensorReading, reportedSpeed: Double?, time: Double) -> Bool
    {
        guard !state.sensorProgress.gpsRouteStarted, let total = sensors.distance else { return false }
        guard state.state == .tracking else {
            state.sensorProgress.baseline = nil
            return false
        }
        let baseline = state.sensorProgress.baseline
        state.sensorProgress.baseline = SensorProgress.Baseline(distance: total, time: time)
        if !state.segmentHasPoints {
            state.segmentHasPoints = true
            state.segmentsWithPoints += 1
        }
        guard let baseline, time > baseline.time else {
            state.lastTrackedTime = time
            return true
        }
        let added = max(0, total - baseline.distance)
        state.distance += added
        state.sensorProgress.distance += added
        recordProgress(
            at: time, intervalSpeed: reportedSpeed ?? added / (time - baseline.time), previous: baseline.time)
        return true
    }

    /// Whether `position` is out of the noise circle around the stop (the route's last point): with a moving speed
    /// that ends an auto-pause even below the resume speed (a steep climb, a sparse recording).
    private func hasLeftTheStop(_ position: TimedPosition, accuracy: Double?) -> Bool {
        guard let stop = state.anchor?.coordinate, let here = position.coordinate else { return false }
        return Geodesic.wgs84.distance(stop, here) >= settings.driftAccuracyFactor
            * (accuracy ?? settings.assumedAccuracy)
    }

    /// When the interval from the last usable fix to `position` is a gap (longer than the recording's cadence
    /// allows: sparse sampling or a signal loss), the speed the straight line over it implies, less both fixes'
    /// uncertainty; `nil` for an ordinary interval. The jump check has already bounded it by the maximum speed.
    private func gapSpeed(to position: TimedPosition, uncertainty: Double) -> Double? {
        guard let last = state.lastUsable, let from = last.coordinate, let to = position.coordinate else { return nil }
        let interval = position.time - last.time
        guard state.cadence.isSignalLoss(interval) else { return nil }
        return max(0, Geodesic.wgs84.distance(from, to) - uncertainty) / interval
    }

    /// Whether covering the way from `from` to `to`, less `uncertainty` metres, in `seconds` needs more than `limit` m/s.
    /// A flat-earth estimate in the local plane (within 0.1 % of the geodesic below 1 km and 80° of latitude)
    /// settles the usual case, a step clearly below the limit, without the exact geodesic.
    static func needsSpeed(
        from: Coordinate, to: Coordinate, allowing uncertainty: Double, in seconds: Double,
        above limit: Double
    ) -> Bool {
        if abs(from.latitude) <= 80 {
            let offset = LocalPlane(origin: from).project(to)
            let estimate = (offset.x * offset.x + offset.y * offset.y).squareRoot()
            if estimate <= 1000, (estimate * 1.01 - uncertainty) / seconds <= limit { return false }
        }
        return max(0, Geodesic.wgs84.distance(from, to) - uncertainty) / seconds > limit
    }

    /// Decides whether the position extends the route, and adds the distance if so. After a gap (`gapSpeed` set)
    /// the straight line from the route's last point is added when the gap's speed is a moving one; a gap at a
    /// standing speed is a stop, and drift is not distance.
    private mutating func measureDistance(
        _ position: TimedPosition, fix: Fix, speed: Double?, reportedSpeed: Bool,
        gapSpeed: Double?
    ) -> PointRejection? {
        guard let anchor = state.anchor, let anchorCoordinate = anchor.coordinate, let coordinate = position.coordinate
        else {
            return addRoutePoint(position, distance: 0)
        }
        let offset = Geodesic.wgs84.distance(anchorCoordinate, coordinate)
        if let gapSpeed {
            guard gapSpeed >= profile.movingSpeed else {
                state.wasMoving = false
                return .stationaryDrift
            }
            state.wasMoving = true
            state.movedInSegment = true
            return addRoutePoint(position, distance: offset)
        }
        let policy = self.policy
        let driftRadius = max(
            policy.minDistance, settings.driftAccuracyFactor * (fix.horizontalAccuracy ?? settings.assumedAccuracy))
        let moving: Bool
        if let speed {
            // A receiver's own (Doppler) speed is trusted; a derived one must also leave the noise circle after a stop.
            let needed = reportedSpeed || state.wasMoving ? policy.minDistance : driftRadius
            moving = speed >= profile.movingSpeed && offset >= needed
        } else {
            moving = offset >= driftRadius
        }
        guard moving || (speed ?? 0) >= profile.movingSpeed else {
            state.wasMoving = false
            if !state.movedInSegment { settleAnchor(with: position) }
            return .stationaryDrift
        }
        guard moving, position.time - (state.lastRoutePointTime ?? -.infinity) >= policy.minInterval else {
            return .belowSamplingDistance
        }
        state.wasMoving = true
        state.movedInSegment = true
        return addRoutePoint(position, distance: offset)
    }

    /// Before the first movement of a segment the anchor is the mean of every position so far.
    private mutating func settleAnchor(with position: TimedPosition) {
        guard let anchor = state.anchor else { return }
        let count = Double(state.anchorSamples)
        let latitude = (anchor.latitude * count + position.latitude) / (count + 1)
        let longitude = (anchor.longitude * count + position.longitude) / (count + 1)
        state.anchor = TimedPosition(time: anchor.time, latitude: latitude, longitude: longitude)
        state.anchorSamples += 1
    }

    private mutating func addRoutePoint(_ position: TimedPosition, distance: Double) -> PointRejection? {
        state.sensorProgress.gpsRouteStarted = true
        state.distance += distance
        state.anchor = position
        state.anchorSamples = 1
        state.lastRoutePointTime = position.time
        if !state.segmentHasPoints {
            state.segmentHasPoints = true
            state.segmentsWithPoints += 1
        }
        return nil
    }

    /// Pauses once the speed has stayed below the auto-pause speed for `autoPauseAfter` seconds; the slow
    /// spell began at the previous fix, like the moving interval it closes.
    private mutating func checkAutoPause(speed: Double?, time: Double, previous: Double?) {
        guard profile.autoPause, let speed else { return }
        guard speed < profile.autoPauseSpeed else {
            state.slowSince = nil
            return
        }
        let since = state.slowSince ?? previous ?? time
        state.slowSince = since
        if time - since >= profile.autoPauseAfter {
            // After a gap the stop began long before this fix: the pause starts when it would have live.
            beginPause(at: since + profile.autoPauseAfter, automatic: true)
        }
    }

    /// Starts a new segment: nothing is measured across the break.
    private mutating func breakSegment() {
        if state.segmentHasPoints || state.anchor != nil { state.segment += 1 }
        state.segmentHasPoints = false
        state.anchor = nil
        state.anchorSamples = 0
        state.movedInSegment = false
        state.wasMoving = false
        state.lastUsable = nil
        state.lastTrackedTime = nil
        state.derived = DerivedSpeed()
        state.speedWindow.reset()
        state.slowSince = nil
        state.sensors.interrupt()
        state.laps.heartRate.interrupt()
        state.sensorProgress.baseline = nil
    }

    // MARK: Commands

    /// Pauses the run. Pausing a paused run only turns an automatic pause into a manual one.
    package mutating func pause(at date: Date) throws(RunCommandError) {
        try requireActive("pause")
        if state.state == .paused {
            state.autoPaused = false
            return
        }
        beginPause(at: date.timeIntervalSince1970, automatic: false)
    }

    /// Resumes a paused run (or a draft), starting a new segment; resuming a tracking run changes nothing.
    package mutating func resume(at date: Date) throws(RunCommandError) {
        let time = date.timeIntervalSince1970
        switch state.state {
        case .tracking: return
        case .paused:
            endPause(at: time)
            breakSegment()
        case .draft:
            // Continuing a run that was stopped too early: the time since stopping counts as a pause.
            state.pausedTotal += max(0, time - (state.endedAt ?? time))
            state.endedAt = nil
            state.state = .tracking
            breakSegment()
        case .stopped:
            throw .notActive(id: state.runID, state: state.state, command: "resume")
        }
    }

    /// Stops the run: `.stopped` when it is long enough to save, else `.draft` (a live run stopped by mistake can go
    /// on). With `savingShortRuns` (a recording: a device recorded it, and nothing can continue it) it is always
    /// `.stopped`. Stopping again changes nothing.
    @discardableResult
    package mutating func stop(at date: Date, savingShortRuns: Bool = false) -> RunState {
        guard state.state.isActive else { return state.state }
        let time = max(date.timeIntervalSince1970, state.startedAt)
        if state.state == .paused { endPause(at: time) }
        state.endedAt = time
        state.state = savingShortRuns || isLongEnough(at: time) ? .stopped : .draft
        return state.state
    }

    /// Whether the run meets the minimum duration and distance for saving.
    package func isLongEnough(at time: Double) -> Bool {
        timer(at: time) >= Self.minimumSavedDuration && state.distance >= Self.minimumSavedDistance
    }

    private mutating func beginPause(at time: Double, automatic: Bool) {
        state.sensors.interrupt()
        state.laps.heartRate.interrupt()
        state.state = .paused
        state.pausedSince = max(time, state.startedAt)
        state.autoPaused = automatic
        state.slowSince = nil
        state.wasMoving = false
    }

    private mutating func endPause(at time: Double) {
        if let since = state.pausedSince { state.pausedTotal += max(0, time - since) }
        state.pausedSince = nil
        state.autoPaused = false
        state.state = .tracking
        state.lastTrackedTime = time
    }

    private func requireActive(_ command: String) throws(RunCommandError) {
        guard state.state.isActive else { throw .notActive(id: state.runID, state: state.state, command: command) }
    }

    // MARK: Metrics

    /// Seconds since the start (to the end once stopped).
    package func elapsed(at time: Double) -> Double {
        max(0, (state.endedAt ?? time) - state.startedAt)
    }

    /// Elapsed time minus pauses.
    package func timer(at time: Double) -> Double {
        let end = state.endedAt ?? time
        let openPause = state.pausedSince.map { max(0, end - $0) } ?? 0
        return max(0, elapsed(at: time) - state.pausedTotal - openPause)
    }

    /// Smoothed current speed (about `speedWindow` seconds), m/s; 0 while paused; `nil` until enough data.
    package var currentSpeed: Double? {
        state.state == .paused ? 0 : state.speedWindow.speed()
    }

    /// The movement pattern from the average of the last `patternSamples` speeds.
    package var pattern: MovementPattern {
        guard !state.recentSpeeds.isEmpty else { return .stationary }
        return MovementPattern(averageSpeed: state.recentSpeeds.reduce(0, +) / Double(state.recentSpeeds.count))
    }

    /// The sampling policy for the current pattern and battery state.
    package var policy: SamplingPolicy {
        SamplingPolicy(pattern: pattern, power: state.power, jitter: state.jitter.sigma)
    }

    /// What the distance is measured with so far.
    package var distanceSource: DistanceSource {
        if state.sensorProgress.gpsRouteStarted { return .gps }
        return state.sensorProgress.distance > 0 ? .sensor : .none
    }

    /// The run object at `date`.
    package func summary(at date: Date) -> RunSummary {
        let time = date.timeIntervalSince1970
        let timerTime = timer(at: time)
        return RunSummary(
            id: state.runID, name: state.name, notes: state.notes, activity: state.activity, state: state.state,
            startedAt: Date(timeIntervalSince1970: state.startedAt),
            endedAt: state.endedAt.map(Date.init(timeIntervalSince1970:)),
            distance: state.distance, elapsedTime: elapsed(at: time), timerTime: timerTime,
            movingTime: state.movingTime,
            averagePace: state.distance > 0 ? timerTime / (state.distance / 1000) : nil,
            maxSpeed: state.maxSpeed, ascent: state.ascent, descent: state.descent,
            pointCount: state.pointCount, rejectedPointCount: state.rejectedCount,
            segmentCount: state.segmentsWithPoints,
            distanceSource: distanceSource, averageHeartRate: state.sensors.heartRate.average,
            maxHeartRate: state.sensors.heartRate.maximum, averageCadence: state.sensors.cadence.average,
            averagePower: state.sensors.power.average)
    }
}
