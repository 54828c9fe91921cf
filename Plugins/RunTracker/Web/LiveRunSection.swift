import Foundation
import MeridianCore
import MeridianWeb

/// The run card of the "now" page: the active run with live distance, time, pace, lap, moving pattern and power
/// state, the last lap, and its pause/resume/lap/stop buttons; the run just stopped too short to save, to resume or
/// discard (older drafts and imports never take the card); or a form to start a run.
struct LiveRunSection {
    let controller: LiveRunController
    let history: RunHistory

    func html(site: WebSite) async throws -> String {
        let figures = RunFigures(units: site.units)
        if let status = try await controller.activeStatus() {
            return try RunTemplates.set.render("live", Self.activeModel(status, figures: figures))
        }
        if let draft = try await controller.currentDraft() {
            return try RunTemplates.set.render(
                "live",
                Model(
                    state: "draft", refreshEvery: 0,
                    draft: DraftModel(
                        name: draft.name, distance: figures.distance(draft.distance),
                        timer: figures.duration(draft.timerTime),
                        resumeURL: RunLinks.api(draft.id, "resume"), discardURL: RunLinks.api(draft.id, "discard"))))
        }
        let last = try await history.list(RunListQuery(limit: 1)).runs.first.map { item in
            LastRun(
                name: item.run.name, href: RunLinks.run(item.run.id), distance: figures.distance(item.run.distance),
                duration: figures.duration(item.run.timerTime), date: site.format.day(item.run.startedAt))
        }
        return try RunTemplates.set.render(
            "live",
            Model(
                state: "idle", refreshEvery: 0,
                idle: IdleModel(
                    activities: RunFigures.options(selected: .run), last: last)))
    }

    /// The card of the active run: "waiting for GPS" before its first usable fix, "no signal" while its last fix is
    /// older than `LiveStatus.signalFreshFor` (the receiver stopped or lost the sky), else the fix's signal.
    static func activeModel(_ status: LiveStatus, figures: RunFigures) -> Model {
        let run = status.run
        let ride = run.activity == .ride
        let signal: String
        if status.waitingForGps {
            signal = "waiting for GPS"
        } else if let age = status.lastFixAgeS, age > LiveStatus.signalFreshFor {
            signal = "no signal (last fix \(PageFormat.age(age)))"
        } else {
            signal = status.signalQuality.map { "signal \($0.rawValue)" } ?? "signal unknown"
        }
        var power = status.power.state.rawValue
        if let capacity = status.power.capacityPercent { power += " · \(Int(capacity.rounded())) %" }
        if status.power.charging { power += " · charging" }
        let active = ActiveModel(
            name: run.name, activity: RunFigures.label(run.activity), message: status.message, signal: signal,
            distance: status.text.distance, timer: status.text.timer,
            paceLabel: ride ? "Speed" : "Pace", pace: ride ? status.text.speed : status.text.pace,
            average: ride
                ? figures.speed(run.timerTime > 0 ? run.distance / run.timerTime : 0) : status.text.averagePace,
            split: status.text.split, pattern: status.movementPattern.rawValue, power: power, lap: status.text.lap,
            lastLap: status.laps.last?.sentence(activity: run.activity, units: figures.units),
            tracking: run.state == .tracking,
            pauseURL: RunLinks.api(run.id, "pause"), resumeURL: RunLinks.api(run.id, "resume"),
            stopURL: RunLinks.api(run.id, "stop"))
        return Model(state: run.state.rawValue + (status.autoPaused ? "-auto" : ""), refreshEvery: 1, active: active)
    }

    struct Model {
        var state: String
        /// Seconds between refreshes without events (the timer runs on while no fix arrives).
        var refreshEvery: Int
        /// The events that change the card: fixes only while a run is active.
        var refreshOn: String
        var active: ActiveModel?
        var draft: DraftModel?
        var idle: IdleModel?

        init(
            state: String, refreshEvery: Int, active: ActiveModel? = nil, draft: DraftModel? = nil,
            idle: IdleModel? = nil
        ) {
            self.state = state
            self.refreshEvery = refreshEvery
            refreshOn = refreshEvery > 0 ? "run.state fix" : "run.state"
            self.active = active
            self.draft = draft
            self.idle = idle
        }
    }

    struct ActiveModel {
        var name, activity, message, signal, distance, timer, paceLabel, pace, average, split, pattern, power,
            lap: String
        /// The lap the button closed last, as a sentence; `nil` before the first.
        var lastLap: String?
        var tracking: Bool
        var pauseURL, resumeURL, stopURL: String
    }

    struct DraftModel {
        var name, distance, timer, resumeURL, discardURL: String
    }

    struct IdleModel {
        var activities: [RunFigures.Option]
        var last: LastRun?
    }

    struct LastRun {
        var name, href, distance, duration, date: String
    }
}
