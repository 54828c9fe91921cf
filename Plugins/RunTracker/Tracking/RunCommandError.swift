import Foundation
import MeridianCore

/// A start/pause/resume/stop request that makes no sense in the run's current state.
package enum RunCommandError: Error, Equatable, CustomStringConvertible {
    /// Another run is being tracked.
    case anotherRunActive(id: String, name: String)
    /// The run is finished (stopped or kept as a draft).
    case notActive(id: String, state: RunState, command: String)
    /// No run with this id, or no active run.
    case noSuchRun(id: String?)
    /// The run name is too long: what is wrong with it.
    case invalidName(String)
    /// Only drafts can be discarded.
    case notDraft(id: String)
    /// A start gave the id of a run that has already finished (saved, kept as a draft, or deleted); `resumable` when
    /// it is the draft just stopped.
    case finished(id: String, state: RunState, resumable: Bool)
    /// A resume named a draft that is not the live run just stopped: resuming it would join an old run to the
    /// present position.
    case notCurrentDraft(id: String, endedAt: Date?)

    package var description: String {
        switch self {
        case .anotherRunActive(let id, let name):
            return "run '\(name)' (\(id)) is still being tracked; stop it before starting another"
        case .notActive(let id, let state, let command):
            return
                "cannot \(command) run \(id): it is \(state.rawValue); only a tracking or paused run can be paused, resumed or stopped"
        case .noSuchRun(let id):
            return id.map { "there is no run with id '\($0)'" }
                ?? "no run is being tracked; start one with POST /v1/runs or `meridian runs start`"
        case .invalidName(let problem):
            return "the run name \(problem); give a shorter one"
        case .notDraft(let id):
            return
                "run \(id) is not a draft; only runs too short to save can be discarded (delete saved runs with DELETE /v1/runs/\(id))"
        case .finished(let id, let state, let resumable):
            let draft =
                state != .draft
                ? ""
                : resumable
                    ? " (it is the draft just stopped: continue it with POST /v1/runs/\(id)/resume)"
                    : " (it is a draft that can no longer be resumed: discard it with POST /v1/runs/\(id)/discard)"
            return "run \(id) has already finished\(draft); start a new run without an id, or with a new one"
        case .notCurrentDraft(let id, let endedAt):
            let stopped = endedAt.map { " (stopped \(ISO8601.string(from: $0)))" } ?? ""
            return "run \(id) is a draft\(stopped) but not the run just stopped; only that one can be resumed, within "
                + "\(Int(LiveRunController.draftResumeWindow / 60)) minutes, so that an old run is never joined to today's "
                + "position. Discard it with POST /v1/runs/\(id)/discard, or start a new run"
        }
    }
}
