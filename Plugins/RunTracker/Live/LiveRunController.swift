import ActivityFiles
import Foundation
import Logging
import MeridianCore

/// Owns the active run: feeds it fixes, applies commands, and writes points and state
/// to the store in small transactions at least every `flushInterval` seconds, so a
/// crash loses at most that much. Restores the active run from the store on first use.
///
/// Fixes never wait for the store: one write runs at a time beside them. While the store refuses writes
/// (another process holds it, the disk is full) points wait in memory, up to `maxPendingPoints`, and
/// `pendingWrites` says so; the next write that succeeds takes them all.
package actor LiveRunController {
    /// Longest time points wait in memory before they are written, seconds.
    package static let flushInterval = 0.5
    /// A live run stopped too short to save can be resumed this long after it stopped, seconds; later it would join
    /// an old run to the present position (it stays a draft, to discard).
    package static let draftResumeWindow = 3600.0
    /// Points held while the store refuses writes by default: 30 minutes at 10 fixes a second.
    package static let defaultMaxPendingPoints = 18_000
    /// Points held while the store refuses writes; beyond it the oldest go.
    package let maxPendingPoints: Int
    /// What waits to be written while the store refuses writes (`nil` while writes succeed).
    package nonisolated let pendingWrites = PendingWritesBox()

    private let runStore: RunStore
    private let settings: TrackerSettings
    private let events: EventBus
    private let units: UnitSystem
    private let powerSupply: PowerSupply
    private let logger: Logger
    private let clock: @Sendable () -> Date

    private var engine: RunEngine?
    /// The laps the active run's lap button closed; the first `storedLaps` are in `run_laps`, the rest go with the
    /// next write.
    private var laps: [DeviceLap] = []
    private var storedLaps = 0
    private var pending: [TrackPoint] = []
    private var lastFlush = Date.distantPast
    /// The sources whose fixes the active run has taken: late fixes from others (a backup that fusion passed over)
    /// stay out of it.
    private var sources: Set<String> = []
    private var power = PowerSupply.Reading(capacityPercent: nil, charging: false)
    private var lastPowerRead = Date.distantPast
    private var restoring: Task<Void, any Error>?
    /// The write in flight; the next one starts after it.
    private var writing: Task<[PersonalRecord], any Error>?
    /// The writes fixes started: one after the other while points are due.
    private var writer: Task<Void, Never>?
    /// When the first refused write since the last success was tried.
    private var refusedSince: Date?
    private var droppedPoints = 0
    /// Points in the write in flight (they are pending until it succeeds).
    private var pointsInFlight = 0
    /// The stopped run's state once it is stored: later flushes leave it alone, so it is written and completed once
    /// (and an edit made after the stop stays).
    private var storedEnd: EngineState?
    /// While late points are being put in: flushes wait, so the points read from the store stay all there is.
    private var replaying = false
    /// `pending` holds every point of the run, tracked again: the next write replaces the stored points and laps.
    private var replacePoints = false
    /// Tasks waiting for the write in flight or a replay's read to end (`waitForQuiet`).
    private var quietWaiters: [CheckedContinuation<Void, Never>] = []

    package init(
        runStore: RunStore, settings: TrackerSettings, events: EventBus, units: UnitSystem,
        powerSupply: PowerSupply = PowerSupply(), logger: Logger, clock: @escaping @Sendable () -> Date = Date.init,
        maxPendingPoints: Int = LiveRunController.defaultMaxPendingPoints
    ) {
        self.runStore = runStore
        self.maxPendingPoints = max(1, maxPendingPoints)
        self.settings = settings
        self.events = events
        self.units = units
        self.powerSupply = powerSupply
        self.logger = logger
        self.clock = clock
    }

    // MARK: Restore

    /// Restores the run that was active when the service stopped (or died). Runs once; later calls return at once.
    package func restoreIfNeeded() async throws {
        if let restoring { return try await restoring.value }
        let task = Task { try await self.restoreActiveRun() }
        restoring = task
        do { try await task.value } catch {
            restoring = nil  // try again on the next call
            throw error
        }
    }

    private func restoreActiveRun() async throws {
        let states = try await runStore.activeStates()
        guard let newest = states.last else { return }
        for older in states.dropLast() {
            // Only one run may be active: older leftovers are stopped where they were.
            var stale = RunEngine(restoring: older, settings: settings)
            let end = Date(timeIntervalSince1970: older.lastFixTime ?? older.startedAt)
            stale.stop(at: end)
            try await runStore.persist(stale.state, summary: stale.summary(at: clock()), points: [])
        }
        engine = RunEngine(restoring: newest, settings: settings)
        laps = try await runStore.laps(runID: newest.runID)
        storedLaps = laps.count
        refreshPower(force: true)
        logger.info(
            "restored the active run", metadata: ["run": "\(newest.runID)", "state": "\(newest.state.rawValue)"])
        if let engine { publish(engine, reason: "restored") }
    }

    // MARK: Commands

    /// Starts a run. With an `id` equal to the active run's, returns it (a retried start); any other
    /// start while a run is active is rejected.
    package func start(name: String?, activity: Activity, id: String? = nil) async throws -> LiveStatus {
        try await restoreIfNeeded()
        if let engine, engine.state.state.isActive {
            if let id, id == engine.state.runID { return status(engine) }
            throw RunCommandError.anotherRunActive(id: engine.state.runID, name: engine.state.name)
        }
        let now = clock()
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let runName = trimmed.isEmpty ? activity.runName(startedAt: now) : trimmed
        if let problem = RunEdit.nameLimit.problem(runName) { throw RunCommandError.invalidName(problem) }
        if let id, let existing = try await runStore.summary(id: id) {
            let resumable = engine.map { $0.state.runID == id && isCurrentDraft($0) } ?? false
            throw RunCommandError.finished(id: id, state: existing.state, resumable: resumable)
        }
        let runID = id ?? UUID().uuidString.lowercased()
        var started = RunEngine(runID: runID, name: runName, activity: activity, startedAt: now, settings: settings)
        refreshPower(force: true)
        started.setPower(power.state)
        try await runStore.insert(started.state, summary: started.summary(at: now))
        engine = started
        laps = []
        storedLaps = 0
        pending = []
        sources = []
        publish(started, reason: "started")
        return status(started)
    }

    /// Pauses the active run `id` (idempotent).
    package func pause(id: String) async throws -> LiveStatus {
        try await command(id: id, "pause") { engine, now throws(RunCommandError) in
            try engine.pause(at: now)
            engine.log(.pause, at: now)
        }
    }

    /// Resumes run `id` (idempotent): the active run, or the current draft (`currentDraft()`). Any other draft is
    /// refused (`notCurrentDraft`): resuming it would join an old run, or an imported one, to today's position.
    package func resume(id: String) async throws -> LiveStatus {
        try await restoreIfNeeded()
        let current = engine.map { $0.state.runID == id && ($0.state.state != .draft || isCurrentDraft($0)) } ?? false
        if !current, let summary = try await runStore.summary(id: id), summary.state == .draft {
            throw RunCommandError.notCurrentDraft(id: id, endedAt: summary.endedAt)
        }
        return try await command(id: id, "resume") { engine, now throws(RunCommandError) in
            try engine.resume(at: now)
            engine.log(.resume, at: now)
        }
    }

    /// The current draft: the live run this service stopped last, too short to save, while it can still be resumed
    /// (for `draftResumeWindow` after it stopped, and until another run starts or it is discarded); else `nil`.
    package func currentDraft() async throws -> RunSummary? {
        try await restoreIfNeeded()
        guard let engine, isCurrentDraft(engine) else { return nil }
        return engine.summary(at: clock())
    }

    private func isCurrentDraft(_ engine: RunEngine) -> Bool {
        guard engine.state.state == .draft, let endedAt = engine.state.endedAt else { return false }
        return clock().timeIntervalSince1970 - endedAt <= Self.draftResumeWindow
    }

    /// What stopping a run produced.
    package struct StopResult: Sendable, Encodable {
        package var run: RunSummary
        /// False when the run was too short and is kept as a draft.
        package var saved: Bool
        package var message: String
        /// The saved run's gear (its activity's default item), saying whether the run took it past its retirement
        /// distance; `nil` without gear or for a draft.
        @NullWhenAbsent package var gear: RunGear?
    }

    /// Stops run `id`: saved when at least 60 s and 100 m, else kept as a draft. Stopping again returns the same.
    package func stop(id: String) async throws -> StopResult {
        try await restoreIfNeeded()
        if engine?.state.runID == id { try await takeEdits(runID: id) }
        guard let current = engine, current.state.runID == id else {
            if let summary = try await runStore.summary(id: id), !summary.state.isActive {
                return try await withGear(Self.stopResult(summary))
            }
            throw RunCommandError.noSuchRun(id: id)
        }
        if !current.state.state.isActive { return try await withGear(Self.stopResult(current.summary(at: clock()))) }
        var stopped = current
        stopped.stop(at: clock())
        if let last = stopped.finalLap() { laps.append(last) }
        engine = stopped
        try await flush()
        publish(stopped, reason: "stopped")
        return try await withGear(Self.stopResult(stopped.summary(at: clock())))
    }

    /// `result` with the saved run's gear.
    private func withGear(_ result: StopResult) async throws -> StopResult {
        guard result.saved else { return result }
        var result = result
        result.gear = try await GearBook(store: runStore.store).ofRun(result.run.id)
        return result
    }

    /// The lap button: closes the active run's lap in progress (stored at once with trigger manual) and starts the
    /// next; `nil` when no run is active.
    package func lap() async throws -> LiveStatus? {
        try await restoreIfNeeded()
        guard var current = engine, current.state.state.isActive else { return nil }
        laps.append(try current.lap(at: clock()))
        engine = current
        try await flush()
        publish(current, reason: "lap")
        return status(current)
    }

    /// Deletes draft `id`.
    package func discard(id: String) async throws {
        try await restoreIfNeeded()
        guard try await runStore.discardDraft(id: id) else {
            if try await runStore.summary(id: id) == nil { throw RunCommandError.noSuchRun(id: id) }
            throw RunCommandError.notDraft(id: id)
        }
        if engine?.state.runID == id { engine = nil }
    }

    /// The result of stopping `run`, with a message saying whether it was saved or kept as a draft.
    package static func stopResult(_ run: RunSummary) -> StopResult {
        guard run.state == .draft else {
            return StopResult(
                run: run, saved: true,
                message:
                    "run saved: \(DistanceFormat.string(metres: run.distance, units: .metric)) in \(TimeFormat.duration(seconds: run.timerTime))"
            )
        }
        return StopResult(
            run: run, saved: false,
            message: """
                the run is too short to save (it needs at least \(Int(RunEngine.minimumSavedDuration)) s and \
                \(Int(RunEngine.minimumSavedDistance)) m; it has \(TimeFormat.duration(seconds: run.timerTime)) and \
                \(Int(run.distance.rounded())) m); it is kept as a draft: resume it or discard it
                """)
    }

    private func command(
        id: String, _ name: String,
        _ apply: (inout RunEngine, Date) throws(RunCommandError) -> Void
    ) async throws -> LiveStatus {
        try await restoreIfNeeded()
        if engine?.state.runID == id { try await takeEdits(runID: id) }
        guard var current = engine, current.state.runID == id else {
            if let summary = try await runStore.summary(id: id) {
                throw RunCommandError.notActive(id: id, state: summary.state, command: name)
            }
            throw RunCommandError.noSuchRun(id: id)
        }
        let before = current.state.state
        let wasAuto = current.state.autoPaused
        try apply(&current, clock())
        engine = current
        try await flush()
        if before != current.state.state || wasAuto != current.state.autoPaused { publish(current, reason: name) }
        return status(current)
    }

    // MARK: Fixes

    /// Feeds one fix to the active run at the time `LiveFixTime` gives it (its own when believable, else the service
    /// clock's), and writes when a flush is due. A fix older than the run's newest goes into its place (`backfill`).
    package func consume(_ fix: Fix) async {
        do { try await restoreIfNeeded() } catch {
            logger.error("cannot restore the active run: \(error)")
        }
        guard var current = engine, current.state.state.isActive else { return }
        sources.insert(fix.providerID)
        var stamped = fix
        let now = clock()
        switch LiveFixTime.judge(
            fix.time, runStart: Date(timeIntervalSince1970: current.state.startedAt),
            newest: current.state.lastFixTime.map(Date.init(timeIntervalSince1970:)), now: now)
        {
        case .next(let time), .serviceClock(let time): stamped.time = time
        case .late(let time):
            stamped.time = time
            return await insertLate([stamped])
        }
        refreshPower(force: false)
        current.setPower(power.state)
        let before = (current.state.state, current.state.autoPaused)
        pending.append(current.feed(stamped))
        if pending.count > maxPendingPoints { dropOldestPending() }
        if let refusedSince { notePending(since: refusedSince, problem: pendingWrites.current?.problem ?? "") }
        engine = current
        if before != (current.state.state, current.state.autoPaused) {
            publish(current, reason: current.state.state == .paused ? "auto-pause" : "auto-resume")
        }
        if writer == nil, now.timeIntervalSince(lastFlush) >= Self.flushInterval { startWriter() }
    }

    /// Puts late fixes (a phone's offline queue sent after newer points) into the active run in their place in time:
    /// the run is tracked again from all its points, so it ends as if they had come in order. Fixes from before the
    /// run's start are not part of it; fixes newer than its newest are fed as usual; only sources the run has taken
    /// fixes from are heard.
    package func backfill(_ fixes: [Fix]) async {
        do { try await restoreIfNeeded() } catch {
            logger.error("cannot restore the active run: \(error)")
        }
        var late: [Fix] = []
        for fix in fixes.sorted(by: { $0.time < $1.time }) where sources.contains(fix.providerID) {
            guard let current = engine, current.state.state.isActive else { return }
            let judged = LiveFixTime.judge(
                fix.time, runStart: Date(timeIntervalSince1970: current.state.startedAt),
                newest: current.state.lastFixTime.map(Date.init(timeIntervalSince1970:)), now: clock())
            switch judged {
            case .next: await consume(fix)
            case .late(let time):
                var stamped = fix
                stamped.time = time
                late.append(stamped)
            case .serviceClock: continue  // a late fix from before the run's start, or from the future
            }
        }
        await insertLate(late)
    }

    /// Tracks the active run again with `late` in place (`LiveReplay`); the next write replaces its stored points.
    private func insertLate(_ late: [Fix]) async {
        guard !late.isEmpty, let runID = engine?.state.runID else { return }
        await waitForQuiet(includingReplays: true)
        replaying = true
        let stored: [TrackPoint]
        do {
            stored = replacePoints ? [] : try await runStore.points(runID: runID)
        } catch {
            endReplay()
            logger.error("cannot read the active run to put \(late.count) late points in place: \(error)")
            return
        }
        endReplay()
        guard let current = engine, current.state.runID == runID, current.state.state.isActive else { return }
        let replay = LiveReplay.run(current.state, points: stored + pending, late: late, laps: laps, settings: settings)
        engine = replay.engine
        laps = replay.laps
        pending = replay.points
        replacePoints = true
        publish(replay.engine, reason: "late points")
        if writer == nil { startWriter() }
    }

    /// Writes beside the fixes, not awaited by them (a store that makes writes wait never holds up the next fix),
    /// again at once while the oldest point still pending is due; a refused write waits for the next due fix.
    private func startWriter() {
        writer = Task {
            // Not while late points are put in: the flush then writes nothing and returns at once, so the loop would
            // hold the actor and the replay it waits for could never finish (`insertLate` starts a writer after it).
            repeat {
                await flushLogging()
            } while refusedSince == nil && !replaying
                && pending.first.map { clock().timeIntervalSince($0.time) >= Self.flushInterval } == true
            writer = nil
        }
    }

    /// Writes pending points and the run state; a refused write keeps the points pending (retried on the next
    /// flush) and is logged once, with the store's answer, until a write succeeds again.
    package func flushLogging() async {
        let refusedBefore = refusedSince != nil
        do { try await flush() } catch {
            if !refusedBefore {
                logger.error(
                    "cannot write the active run: \(error); its points wait in memory (up to \(maxPendingPoints)) and are written when the store takes writes again"
                )
            }
        }
    }

    /// Writes pending points and the run state in one transaction, after the write in flight; a stopped run once
    /// (the write that stores it publishes the personal records it sets).
    package func flush() async throws {
        await waitForQuiet(includingReplays: false)
        guard !replaying, let current = engine, current.state != storedEnd else { return }
        lastFlush = clock()
        let points = pending
        pending = []
        let replacing = replacePoints
        replacePoints = false
        let lapWrite: RunStore.LapWrite = replacing ? .replace(laps) : .append(Array(laps[storedLaps...]))
        let lapsWritten = laps.count
        let summary = current.summary(at: clock())
        let state = current.state
        let store = runStore
        let task = Task { try await store.persist(state, summary: summary, points: points, laps: lapWrite) }
        writing = task
        pointsInFlight = points.count
        defer {
            writing = nil
            pointsInFlight = 0
            wakeQuietWaiters()
        }
        do {
            let records = try await task.value
            if let refusedSince {
                let dropped = droppedPoints > 0 ? ", \(droppedPoints) older ones were dropped" : ""
                logger.notice(
                    "the active run is written again: \(points.count) points held since \(ISO8601.string(from: refusedSince)) are stored\(dropped)"
                )
            }
            storedLaps = lapsWritten
            refusedSince = nil
            droppedPoints = 0
            pendingWrites.set(nil)
            if !state.state.isActive {
                storedEnd = state
                RunCompletion.publish(records, to: events)
            }
        } catch {
            pending = points + pending
            pointsInFlight = 0
            if replacing {
                replacePoints = true  // every point is still pending: none may be dropped
            } else if pending.count > maxPendingPoints {
                dropOldestPending()
            }
            let since = refusedSince ?? lastFlush
            refusedSince = since
            notePending(since: since, problem: "\(error)")
            throw error
        }
    }

    /// Returns once no write is in flight (and, `includingReplays`, no replay is reading the run). Waiters suspend
    /// until woken, so the actor is free for the write's end: awaiting a finished write task would not suspend, and a
    /// loop on it would hold the actor so that the write could never be marked done.
    private func waitForQuiet(includingReplays: Bool) async {
        while writing != nil || (includingReplays && replaying) {
            await withCheckedContinuation { quietWaiters.append($0) }
        }
    }

    private func wakeQuietWaiters() {
        let waiters = quietWaiters
        quietWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func endReplay() {
        replaying = false
        wakeQuietWaiters()
    }

    /// Waits until the writes fixes started are done, without starting one.
    func settle() async {
        while let chain = writer { await chain.value }
    }

    private func notePending(since: Date, problem: String) {
        pendingWrites.set(
            PendingWrites(items: pending.count + pointsInFlight, since: since, problem: problem, dropped: droppedPoints)
        )
    }

    private func dropOldestPending() {
        let excess = pending.count - maxPendingPoints
        pending.removeFirst(excess)
        if droppedPoints == 0 {
            logger.warning(
                "the store has refused writes for too long: the oldest points of the active run are dropped, keeping the newest \(maxPendingPoints)"
            )
        }
        droppedPoints += excess
    }

    // MARK: Status

    /// The active run's status, or `nil` when none is active.
    package func activeStatus() async throws -> LiveStatus? {
        try await restoreIfNeeded()
        guard let runID = engine?.state.runID, engine?.state.state.isActive == true else { return nil }
        try await takeEdits(runID: runID)
        guard let engine, engine.state.state.isActive else { return nil }
        refreshPower(force: false)
        return status(engine)
    }

    /// Takes a name or notes edited in the stored row (over HTTP or by `meridian runs edit`) into the active run, so
    /// its status and events say them at once.
    private func takeEdits(runID: String) async throws {
        guard let row = try await runStore.summary(id: runID), var current = engine, current.state.runID == runID,
            current.state.name != row.name || current.state.notes != row.notes
        else { return }
        current.takeEdit(name: row.name, notes: row.notes)
        engine = current
    }

    private func status(_ engine: RunEngine) -> LiveStatus {
        var status = LiveStatus(engine: engine, now: clock(), power: power, units: units, laps: laps)
        status.pendingWrites = pendingWrites.current
        return status
    }

    private func refreshPower(force: Bool) {
        let now = clock()
        guard force || now.timeIntervalSince(lastPowerRead) >= 30 else { return }
        lastPowerRead = now
        power = powerSupply.read()
    }

    private func publish(_ engine: RunEngine, reason: String) {
        events.publish(
            "run.state",
            RunStateEvent(
                id: engine.state.runID, state: engine.state.state,
                autoPaused: engine.state.autoPaused, reason: reason,
                run: engine.summary(at: clock())))
    }
}

/// Payload of the `run.state` event.
package struct RunStateEvent: Sendable, Encodable, Equatable {
    package var id: String
    package var state: RunState
    package var autoPaused: Bool
    /// started, pause, resume, auto-pause, auto-resume, lap, stopped, restored, late points.
    package var reason: String
    package var run: RunSummary
}
