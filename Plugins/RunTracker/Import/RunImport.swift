import ActivityFiles
import Foundation
import MeridianCore

/// Runs a recording through the tracking engine at full speed, as a live run would have seen it: the same rules
/// for gaps, jumps and standing still, with the recording's own pauses.
package enum RunImport {
    /// Tracks `recording`: the run starts at the recording's start (or its first sample), stops at its last sample,
    /// and is paused during the recording's pauses (FIT timer stops, GPX `trkseg` and TCX `Track` boundaries) and
    /// across silences longer than `settings.pauseGapSeconds`. Files with the device's own timer events (FIT) are
    /// tracked with the device's pauses only; the others with the configured auto-pause as well.
    /// `activity` overrides the file's sport; a file without one gets the activity its speeds show
    /// (`ActivityInference`). A recording is always saved, however short: a device recorded it, and only a live run
    /// can go on as a draft. Returns `nil` when the recording has no samples.
    /// The recording's samples are let go as they become track points, so an import never holds both whole.
    package static func track(
        _ recording: consuming RecordedActivity, id: String = UUID().uuidString.lowercased(), name: String,
        activity: Activity? = nil, settings: TrackerSettings = TrackerSettings()
    ) -> TrackedRecording? {
        var samples = RecordedSamples()
        swap(&samples, &recording.samples)
        putInTimeOrder(&samples)
        guard let first = samples.first, let last = samples.last else { return nil }
        let named = activity ?? recording.sport.map(Activity.init)
        let inference = named == nil ? ActivityInference(samples) : nil
        let activity = named ?? inference?.activity ?? .other
        // The reader turns strides into steps only for a foot sport the file names; for the others it happens here.
        let stridesToSteps = recording.sport == nil && [.run, .walk, .hike].contains(activity)
        let start = min(recording.startTime ?? first.time, first.time)
        var engine = RunEngine(
            runID: id, name: name, activity: activity, startedAt: start,
            settings: recording.hasDeviceTimer ? settings.withoutAutoPause : settings)
        var points: [TrackPoint] = []
        points.reserveCapacity(samples.count)
        var pauses = PauseSchedule(recording.pauses, silence: settings.pauseGapSeconds)
        samples.drain { sample in
            pauses.apply(before: sample.time, to: &engine)
            points.append(
                engine.feed(sample.fix(providerID: "import"), sensors: sample.sensors(stridesToSteps: stridesToSteps)))
        }
        engine.stop(at: last.time, savingShortRuns: true)
        return TrackedRecording(
            engine: engine, points: points,
            device: DeviceFigures(
                name: recording.device, distance: recording.totals?.distance,
                timerTime: recording.totals?.timerTime),
            inference: inference)
    }

    /// Recordings are nearly always in time order already; a stable sort fixes the others.
    private static func putInTimeOrder(_ samples: inout RecordedSamples) {
        if zip(samples, samples.dropFirst()).allSatisfy({ $0.time <= $1.time }) { return }
        samples = RecordedSamples(
            samples.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element))
    }
}

/// A tracked recording: the engine after the last sample, every sample as a track point, what the device itself
/// computed, and how the activity was inferred when the file named none.
package struct TrackedRecording: Sendable {
    package var engine: RunEngine
    package var points: [TrackPoint]
    package var device: DeviceFigures?
    /// `nil` when the caller or the file gave the activity.
    package var inference: ActivityInference?

    /// Why the recording is no activity to save, or `nil`: it spans no time, or holds neither a usable position
    /// nor a sensor reading.
    package var reasonToSkip: String? {
        let summary = self.summary
        if summary.timerTime <= 0 { return "it spans no time (a single sample, or all at the same moment)" }
        let sensed = summary.averageHeartRate != nil || summary.averageCadence != nil || summary.averagePower != nil
        if summary.pointCount == summary.rejectedPointCount, !sensed {
            return "it holds no usable position and no sensor reading"
        }
        return nil
    }

    /// The run object, with the device's figures beside Meridian's.
    package var summary: RunSummary {
        var summary = engine.summary(at: Date(timeIntervalSince1970: engine.state.endedAt ?? engine.state.startedAt))
        summary.device = device
        return summary
    }
}

extension Activity {
    /// The activity a file's sport stands for.
    package init(_ sport: Sport) {
        switch sport {
        case .run: self = .run
        case .ride: self = .ride
        case .walk: self = .walk
        case .hike: self = .hike
        case .other: self = .other
        }
    }
}

extension TrackerSettings {
    /// The same settings with auto-pause off for every activity (the device's own timer decides).
    var withoutAutoPause: TrackerSettings {
        var settings = self
        for activity in Activity.allCases {
            settings.profiles[activity] = settings.profile(activity).withAutoPause(false)
        }
        return settings
    }
}

extension ActivityProfile {
    func withAutoPause(_ on: Bool) -> ActivityProfile {
        var profile = self
        profile.autoPause = on
        return profile
    }
}
