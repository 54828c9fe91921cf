import ActivityFiles
import Foundation
import MeridianCore

/// FIT activity export: the run's accepted points as records (the fixes it did not use, but for those received while
/// paused or out of order, with their time and sensors only, as a device records a moment without a position: so the
/// file keeps the run's time and heart rate and adds no distance), a timer stop and start between segments, its laps
/// (the device's, one per kilometre or a single one, as in TCX), and its own totals in the session.
package enum FITExport {
    /// The file; `cut` turns the points in privacy zones into records without a position, and leaves the distance
    /// run in them out of the records' distances (the laps and the session keep the whole route's).
    package static func file(
        run: RunSummary, points: [TrackPoint], laps: TCXExport.Laps, deviceLaps: [DeviceLap] = [],
        cut: PrivacyCut? = nil
    ) -> [UInt8] {
        FITEncoder.encode(activity(run: run, points: points, laps: laps, deviceLaps: deviceLaps, cut: cut))
    }

    /// The run as the activity a device would have recorded.
    static func activity(
        run: RunSummary, points: [TrackPoint], laps: TCXExport.Laps, deviceLaps: [DeviceLap] = [],
        cut: PrivacyCut? = nil
    ) -> RecordedActivity {
        let cut = cut ?? .whole(points)
        let records = points.filter {
            $0.rejection != .paused && $0.rejection != .outOfOrder && ($0.distance != nil || !$0.isAccepted)
        }
        var fileLaps = deviceLaps
        if laps != .device || deviceLaps.isEmpty {
            let lapPlan = TCXExport.lapPlan(
                run: run, progress: RunProgress(points: points, start: run.startedAt), laps: laps)
            fileLaps = lapPlan.enumerated().map { index, lap in
                DeviceLap(
                    start: run.startedAt.addingTimeInterval(lap.startOffset), timerTime: lap.time,
                    distance: lap.distance,
                    trigger: index + 1 == lapPlan.count ? .sessionEnd : lap.trigger)
            }
        }
        return RecordedActivity(
            format: .fit, sport: Sport(rawValue: run.activity.rawValue), name: run.name, startTime: run.startedAt,
            totals: DeviceTotals(
                distance: run.distance, timerTime: run.timerTime, elapsedTime: run.elapsedTime,
                averageHeartRate: run.averageHeartRate, maxHeartRate: run.maxHeartRate,
                averageCadence: run.averageCadence, averagePower: run.averagePower,
                ascent: run.ascent, descent: run.descent),
            laps: fileLaps,
            samples: records.map { point in
                guard point.isAccepted, let shown = cut.shown(point) else {
                    return RecordedSample(
                        time: point.time, heartRate: point.sensors.heartRate, cadence: point.sensors.cadence,
                        power: point.sensors.power, temperature: point.sensors.temperature)
                }
                return RecordedSample(
                    time: point.time, coordinate: point.coordinate, altitude: point.altitude, speed: point.speed,
                    distance: shown.distance, heartRate: point.sensors.heartRate, cadence: point.sensors.cadence,
                    power: point.sensors.power, temperature: point.sensors.temperature,
                    horizontalAccuracy: point.horizontalAccuracy)
            },
            pauses: pauses(run: run, records: records))
    }

    /// A pause between each two segments, within the gap between the records around it, ending at the first record
    /// of the new segment. The run keeps only its segments, not when its timer stopped, so the pauses take the
    /// share of each gap that makes the file's timer the run's (the rest is time with the timer running and no
    /// record, as after a signal loss), in whole seconds as FIT counts them.
    static func pauses(run: RunSummary, records: [TrackPoint]) -> [DateInterval] {
        var gaps: [DateInterval] = []
        var segment: Int?
        for (before, after) in zip(records, records.dropFirst()) {
            if before.isAccepted { segment = before.segment }
            guard after.isAccepted, let segment, after.segment != segment else { continue }
            gaps.append(DateInterval(start: before.time, end: max(before.time, after.time)))
        }
        guard let last = records.last?.time else { return [] }
        let total = gaps.reduce(0) { $0 + $1.duration }
        let paused = max(0, last.timeIntervalSince(run.startedAt) - run.timerTime)
        let share = total > 0 ? min(1, paused / total) : 0
        var exact = 0.0, written = 0.0
        return gaps.map { gap in
            exact += gap.duration * share
            let length = min(gap.duration, max(0, (exact - written).rounded()))
            written += length
            return DateInterval(start: gap.end.addingTimeInterval(-length), end: gap.end)
        }
    }
}
