import ActivityFiles
import Foundation
import MeridianCore

/// Tracks an active run again from all its points once late ones are in their place in time, with its manual pauses
/// and lap-button presses where they were: the result is what the run would be had every point come in order.
enum LiveReplay {
    /// The run tracked again: its engine, every point (numbered anew) and its laps.
    struct Result {
        var engine: RunEngine
        var points: [TrackPoint]
        var laps: [DeviceLap]
    }

    /// Replays the run of `state` over `points` (what it has) and `late` (fixes to put in; one with the time of a
    /// point it has is a repeat and is left out), pressing the lap button at the ends of `laps`.
    static func run(
        _ state: EngineState, points: [TrackPoint], late: [Fix], laps: [DeviceLap], settings: TrackerSettings
    ) -> Result {
        var engine = RunEngine(
            runID: state.runID, name: state.name, activity: state.activity,
            startedAt: Date(timeIntervalSince1970: state.startedAt), settings: settings)
        engine.carryOver(from: state)
        let known = Set(points.map { $0.time.timeIntervalSince1970 })
        var inputs = points.map { (time: $0.time, fix: $0.fix, sensors: $0.sensors) }
        for fix in late where !known.contains(fix.time.timeIntervalSince1970) {
            inputs.append((fix.time, fix, SensorReading.none))
        }
        inputs.sort { $0.time < $1.time }  // stable: a stored point stays before a late one of the same time

        var commands = (state.commandLog ?? []).map { (time: $0.time, kind: $0.kind) }
        // The lap button was pressed where each lap after the first began, and where the lap in progress began.
        let presses =
            laps.dropFirst().map(\.start) + [state.laps.start].compactMap { $0.map(Date.init(timeIntervalSince1970:)) }
        commands += presses.map { ($0.timeIntervalSince1970, LiveCommand.Kind.lap) }
        commands.sort { $0.time < $1.time }

        var replayedLaps: [DeviceLap] = []
        var next = 0
        func apply(until time: Double) {
            while next < commands.count, commands[next].time <= time {
                let command = commands[next]
                let date = Date(timeIntervalSince1970: command.time)
                switch command.kind {
                case .pause: try? engine.pause(at: date)
                case .resume: try? engine.resume(at: date)
                case .lap: if let lap = try? engine.lap(at: date) { replayedLaps.append(lap) }
                }
                next += 1
            }
        }
        var replayed: [TrackPoint] = []
        replayed.reserveCapacity(inputs.count)
        for input in inputs {
            apply(until: input.time.timeIntervalSince1970)
            replayed.append(engine.feed(input.fix, sensors: input.sensors))
        }
        apply(until: .infinity)
        return Result(engine: engine, points: replayed, laps: replayedLaps)
    }
}

/// A command given to a live run whose time the replay needs (`EngineState.commandLog`).
package struct LiveCommand: Sendable, Equatable, Codable {
    /// What was done.
    package enum Kind: String, Sendable, Codable {
        case pause, resume, lap
    }

    package var kind: Kind
    /// Unix seconds.
    package var time: Double
}

extension TrackPoint {
    /// The fix this point was made from.
    var fix: Fix {
        Fix(
            time: time, coordinate: coordinate, altitudeMSL: altitude, speed: speed,
            horizontalAccuracy: horizontalAccuracy, mode: coordinate == nil ? .noFix : .threeD, providerID: "")
    }
}
