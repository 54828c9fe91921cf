import MeridianCore

/// The laps of a run as the run page's table shows them: number, distance, time, pace (speed for a ride), heart
/// rate and what ended the lap.
struct LapTable {
    var rows: [Row]
    /// Whether a lap has a heart rate, and a trigger (else their columns are left out).
    var heartRate, trigger: Bool

    struct Row {
        var index, distance, time, pace, heartRate, trigger: String
    }

    init(_ laps: [RunLap], activity: Activity, units: UnitSystem) {
        rows = laps.map { lap in
            let texts = lap.texts(activity: activity, units: units)
            return Row(
                index: "\(lap.index)", distance: texts.distance, time: texts.time, pace: texts.pace,
                heartRate: texts.heartRate, trigger: lap.triggerText)
        }
        heartRate = laps.contains { $0.avgHeartRateBpm != nil }
        trigger = laps.contains { $0.trigger != nil }
    }
}
