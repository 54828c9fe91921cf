import ActivityFiles
import Foundation
import MeridianCore

/// One lap of a run, as the API, `runs show` and the pages give it: the device's (FIT `lap`, TCX `Lap`) or the lap
/// button's of a live run. JSON: `index` (from 1), `started_at`, `start_offset_s`, `distance_m`, `timer_s`,
/// `pace_s_per_km` (timer time per km), `avg_heart_rate_bpm`, `max_heart_rate_bpm` and `trigger` (`manual`,
/// `distance`, `time`, `position`, `session_end` or `other`); `null` where the device did not say.
package struct RunLap: Sendable, Codable, Equatable {
    package var index: Int
    package var startedAt: Date
    package var startOffsetS: Double
    @NullWhenAbsent package var distanceM: Double?
    @NullWhenAbsent package var timerS: Double?
    @NullWhenAbsent package var paceSPerKm: Double?
    @NullWhenAbsent package var avgHeartRateBpm: Double?
    @NullWhenAbsent package var maxHeartRateBpm: Double?
    @NullWhenAbsent package var trigger: String?

    /// `laps` in order, numbered from 1, with their offsets from `runStart`.
    package static func list(_ laps: [DeviceLap], runStart: Date) -> [RunLap] {
        laps.enumerated().map { offset, lap in
            let pace: Double? =
                if let time = lap.timerTime, let distance = lap.distance, distance > 0 { time / (distance / 1000) } else
                {
                    nil
                }
            return RunLap(
                index: offset + 1, startedAt: lap.start, startOffsetS: lap.start.timeIntervalSince(runStart),
                distanceM: lap.distance, timerS: lap.timerTime, paceSPerKm: pace, avgHeartRateBpm: lap.averageHeartRate,
                maxHeartRateBpm: lap.maxHeartRate, trigger: lap.trigger?.rawValue)
        }
    }

    /// The lap's figures for people in `units`: distance, timer time, pace (speed for a ride), average heart rate;
    /// "–" where unknown.
    package func texts(activity: Activity, units: UnitSystem) -> (
        distance: String, time: String, pace: String, heartRate: String
    ) {
        (
            distanceM.map { DistanceFormat.string(metres: $0, units: units) } ?? "–",
            timerS.map { TimeFormat.duration(seconds: $0) } ?? "–",
            paceSPerKm.map { PaceOrSpeed.text(secondsPerKilometre: $0, activity: activity, units: units) } ?? "–",
            avgHeartRateBpm.map { "\(Int($0.rounded())) bpm" } ?? "–"
        )
    }

    /// The lap as a sentence: `lap 2: 1.00 km in 4:58 (4:58 /km), 152 bpm` (`runs lap`, the live card); without a
    /// pace or heart rate, without their parts.
    package func sentence(activity: Activity, units: UnitSystem) -> String {
        let figures = texts(activity: activity, units: units)
        let pace = paceSPerKm == nil ? "" : " (\(figures.pace))"
        let heartRate = avgHeartRateBpm == nil ? "" : ", \(figures.heartRate)"
        return "lap \(index): \(figures.distance) in \(figures.time)\(pace)\(heartRate)"
    }

    /// What ended the lap, for people: "lap button", "auto (distance)", "end"…
    package var triggerText: String {
        switch trigger.flatMap(LapTrigger.init(rawValue:)) {
        case .manual?: return "lap button"
        case .distance?: return "auto (distance)"
        case .time?: return "auto (time)"
        case .position?: return "auto (position)"
        case .sessionEnd?: return "end"
        case .other?: return "other"
        case nil: return "–"
        }
    }
}
