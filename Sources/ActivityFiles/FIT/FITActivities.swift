import Foundation
import MeridianCore

/// Turns the messages of one FIT file into activities: one per session (records, laps and
/// timer pauses go to the session that started last at or before them, or the first), or one
/// from everything when the file has no session.
struct FITActivities {
    var contents: FITContents
    let file: String

    /// The activities; the samples move into them (`contents` is left without samples).
    mutating func activities() -> [RecordedActivity] {
        var warnings: [ActivityFileError] = []
        let clock = clockOffset(&warnings)
        func date(_ time: FITTime) -> Date { time.date(clockOffset: clock) }
        let sessions = contents.sessions.sorted { ($0.start ?? 0) < ($1.start ?? 0) }
        let starts = sessions.map { $0.start ?? 0 }
        /// The session that started last at or before `time`, else the first.
        func session(of time: FITTime) -> Int {
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= time { low = middle + 1 } else { high = middle }
            }
            return max(0, low - 1)
        }
        var activities = (sessions.isEmpty ? [nil] : sessions.map(Optional.some)).map { summary in
            activity(summary, start: summary?.start.map(date))
        }
        // Moved, not copied: each chunk of samples is held once, so changing them in place copies nothing.
        var samples = RecordedSamples()
        swap(&samples, &contents.samples)
        if clock != 0 {
            for (index, time) in contents.sampleTimes.enumerated() where time < FITTime.systemTimeLimit {
                samples[index].time = date(time)
            }
        }
        if activities.count == 1 {
            swap(&activities[0].samples, &samples)
        } else {
            var times = contents.sampleTimes.makeIterator()
            samples.drain { sample in
                if let time = times.next() { activities[session(of: time)].samples.append(sample) }
            }
        }
        for index in activities.indices where activities[index].sport?.countsSteps == true {
            // Devices store strides per minute for foot sports; Meridian reports steps.
            for sample in activities[index].samples.indices { activities[index].samples[sample].cadence? *= 2 }
        }
        for lap in contents.laps {
            guard let start = lap.start else { continue }
            activities[session(of: start)].laps.append(
                DeviceLap(
                    start: date(start), timerTime: lap.timerTime, distance: lap.distance,
                    averageHeartRate: lap.averageHeartRate, maxHeartRate: lap.maxHeartRate,
                    trigger: lap.lapTrigger.map(LapTrigger.init(fitNumber:))))
        }
        for (stop, restart) in timerPauses() {
            let start = date(stop)
            activities[session(of: stop)].pauses.append(
                DateInterval(start: start, duration: max(0, date(restart).timeIntervalSince(start))))
        }
        for index in activities.indices where activities[index].startTime == nil {
            activities[index].startTime = activities[index].samples.first?.time
        }
        // What was skipped while decoding belongs to the file; it is counted on its first activity.
        activities[0].skipped.merge(contents.skipped, uniquingKeysWith: +)
        for warning in warnings { activities[0].warn(warning) }
        return activities
    }

    /// The activity for `summary` (a session, or nil for a file without one), without samples.
    private func activity(_ summary: FITSummary?, start: Date?) -> RecordedActivity {
        let sportNumber = summary?.sport ?? contents.sport
        let subSport = summary?.sport != nil ? summary?.subSport : contents.subSport
        let sport = sportNumber.flatMap { FITProfileNames.sport($0, subSport: subSport) }
        let stepFactor = sport?.countsSteps == true ? 2.0 : 1.0
        let totals = summary.map { summary in
            DeviceTotals(
                distance: summary.distance, timerTime: summary.timerTime, elapsedTime: summary.elapsedTime,
                averageHeartRate: summary.averageHeartRate, maxHeartRate: summary.maxHeartRate,
                averageCadence: summary.averageCadence.map { $0 * stepFactor },
                averagePower: summary.averagePower, ascent: summary.ascent, descent: summary.descent)
        }
        return RecordedActivity(
            format: .fit, sport: sport, sportName: sportNumber.map(FITProfileNames.sportName(_:)),
            device: FITProfileNames.device(
                manufacturer: contents.manufacturer, product: contents.product,
                productName: contents.productName),
            startTime: start, totals: totals)
    }

    /// Each stop of the timer with the start that follows it (a stop with no start after it ends the activity).
    private func timerPauses() -> [(FITTime, FITTime)] {
        var pauses: [(FITTime, FITTime)] = []
        var stoppedAt: FITTime?
        for event in contents.timerEvents {
            if event.running {
                if let stop = stoppedAt { pauses.append((stop, event.time)) }
                stoppedAt = nil
            } else if stoppedAt == nil {
                stoppedAt = event.time
            }
        }
        return pauses
    }

    /// Seconds to add to times that count from power-on: the `activity` message's local time
    /// minus its timestamp when it has both, else 0 (and a warning either way).
    private func clockOffset(_ warnings: inout [ActivityFileError]) -> Double {
        let first = contents.sampleTimes.first ?? contents.sessions.first?.start
        guard let first, first < FITTime.systemTimeLimit else { return 0 }
        if let timestamp = contents.activityTimestamp, timestamp < FITTime.systemTimeLimit,
            let local = contents.activityLocalTimestamp, local >= FITTime.systemTimeLimit
        {
            warnings.append(
                ActivityFileError(
                    file: file, byteOffset: contents.startOffset,
                    message:
                        "the device's clock was not set: its times count from power-on; they are placed on the device's local time from the activity message, whose offset from UTC the file does not give"
                ))
            return Double(local) - Double(timestamp)
        }
        warnings.append(
            ActivityFileError(
                file: file, byteOffset: contents.startOffset,
                message:
                    "the device's clock was not set: its times count from power-on and the file gives no date; times are shown from 1989-12-31"
            ))
        return 0
    }
}
