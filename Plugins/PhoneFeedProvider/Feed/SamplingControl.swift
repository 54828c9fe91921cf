import Foundation
import Synchronization

/// OwnTracks' location reporting modes (`monitoring` in its configuration, `m` in its location messages).
package enum OwnTracksMode: Int, Sendable, Encodable {
    /// Significant changes only: the phone's battery lasts.
    case significant = 1
    /// Reports at `locatorInterval` while moving: what a run needs.
    case move = 2

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .move ? "move" : "significant")
    }
}

/// The sampling Meridian asks of one OwnTracks device and what the device last reported.
package struct SamplingState: Sendable, Equatable, Encodable {
    /// What Meridian wants now: move while a run records, significant otherwise.
    package var wanted: OwnTracksMode
    /// The mode last sent in a `setConfiguration` command (`nil`: nothing sent since the service started).
    package var sent: OwnTracksMode?
    /// The mode of the device's newest location message (`m`): its acknowledgement.
    package var reported: OwnTracksMode?
}

/// Drives the OwnTracks phones' sampling from the run tracker (the adaptive-GPS brief on a real app): when a run
/// starts or resumes, every OwnTracks device is told in its next response to switch to move mode with a locator
/// interval at the activity's rate; when the run is paused by the user, stopped or kept as a draft, back to
/// significant-change mode. An auto-pause keeps move mode (the phone must see the athlete move again to resume).
/// Each change is sent once per device, in the answer to its next post (`_type: cmd`, `action: setConfiguration`,
/// owntracks.org/booklet/tech/json); the app applies it when remote configuration is allowed.
final class SamplingControl: Sendable {
    private struct State {
        var wanted = OwnTracksMode.significant
        var interval = 1
        var sent: [String: OwnTracksMode] = [:]
        var reported: [String: OwnTracksMode] = [:]
    }

    private let state = Mutex(State())

    /// Seconds between locations in move mode for an activity of the run tracker (`run`, `walk`, `hike`, `ride`,
    /// `other`): the rate the run tracker samples at (`SamplingPolicy`: 1 s running or riding, 2 s walking).
    static func locatorInterval(activity: String?) -> Int {
        activity == "walk" || activity == "hike" ? 2 : 1
    }

    /// Follows a `run.state` event's JSON (`state`, `auto_paused`, `run.activity`).
    func apply(runStateJSON json: String) {
        guard let event = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let runState = event["state"] as? String
        else { return }
        let autoPaused = event["auto_paused"] as? Bool ?? false
        let recording = runState == "tracking" || (runState == "paused" && autoPaused)
        let activity = (event["run"] as? [String: Any])?["activity"] as? String
        state.withLock { state in
            state.wanted = recording ? .move : .significant
            state.interval = Self.locatorInterval(activity: activity)
        }
    }

    /// Notes the mode `device` reported (`m`) and returns the commands for its answer: a `setConfiguration` when
    /// what Meridian wants differs from what was last sent to it, else none.
    func commands(for device: String, reported: Int?) -> [[String: Any]] {
        state.withLock { state in
            if let mode = reported.flatMap(OwnTracksMode.init(rawValue:)) { state.reported[device] = mode }
            let wanted = state.wanted
            // Nothing to say to a phone that has never been told anything and is where Meridian wants it anyway.
            if state.sent[device] == wanted
                || (state.sent[device] == nil && wanted == .significant && state.reported[device] != .move)
            {
                return []
            }
            state.sent[device] = wanted
            var configuration: [String: Any] = ["_type": "configuration", "monitoring": wanted.rawValue]
            if wanted == .move {
                configuration["locatorInterval"] = state.interval
                configuration["locatorDisplacement"] = 0
            }
            return [["_type": "cmd", "action": "setConfiguration", "configuration": configuration]]
        }
    }

    /// What Meridian wants of `device`, what it last sent it and what the device last reported.
    func sampling(of device: String) -> SamplingState {
        state.withLock { SamplingState(wanted: $0.wanted, sent: $0.sent[device], reported: $0.reported[device]) }
    }
}
