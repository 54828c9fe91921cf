import Foundation
import MeridianCore

/// Runs a recorded list of fixes through the tracking engine at full speed, as a live run would have seen them.
public enum RunImport {
    /// A recording with no fix for longer than this was paused (the device was stopped), seconds.
    /// Shorter gaps are signal losses: they break the segment but count as timer time, as live.
    public static let pauseGap = 300.0

    /// The tracked run: it starts at the first fix and stops at the last one; gaps over `pauseGap` are pauses.
    /// Returns `nil` when `fixes` is empty.
    public static func track(_ fixes: [Fix], id: String = UUID().uuidString.lowercased(), name: String,
                             activity: Activity, settings: TrackerSettings = TrackerSettings()) -> (engine: RunEngine, points: [TrackPoint])? {
        // Recordings are nearly always in time order already; a stable sort fixes the others.
        let inOrder = zip(fixes, fixes.dropFirst()).allSatisfy { $0.time <= $1.time }
        let ordered = inOrder ? fixes
            : fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        guard let first = ordered.first, let last = ordered.last else { return nil }
        var engine = RunEngine(runID: id, name: name, activity: activity, startedAt: first.time, settings: settings)
        var points: [TrackPoint] = []
        points.reserveCapacity(ordered.count)
        var previous: Date?
        for fix in ordered {
            if let previous, fix.time.timeIntervalSince(previous) > pauseGap {
                // Cannot fail: the run is active until `stop` below.
                try? engine.pause(at: previous)
                try? engine.resume(at: fix.time)
            }
            points.append(engine.feed(fix))
            previous = fix.time
        }
        engine.stop(at: last.time)
        return (engine, points)
    }
}
