import MeridianCore

/// Meridian's distance and timer beside the ones the device computed, with the difference: what the run page and
/// `meridian runs show` print for a run imported from a device's file.
struct DeviceComparison {
    /// One figure both computed.
    struct Row {
        /// "Distance" or "Timer".
        var what: String
        var ours: Double
        var theirs: Double
        var isDistance: Bool

        /// Meridian's figure less the device's, in percent of the device's: `+0.4 %`, `−2.4 %`; `–` when the
        /// device's figure is 0.
        var difference: String {
            guard theirs > 0 else { return "–" }
            let percent = (ours - theirs) / theirs * 100
            return "\(percent >= 0 ? "+" : "−")\(NumberText.fixed(abs(percent), decimals: 1)) %"
        }

        /// `value` (one of the two) in the configured units: a distance or a duration.
        func text(_ value: Double, units: UnitSystem) -> String {
            isDistance ? DistanceFormat.string(metres: value, units: units) : TimeFormat.duration(seconds: value)
        }
    }

    /// The figures the device gave (none for a run that was not imported from a device's file).
    static func rows(_ run: RunSummary) -> [Row] {
        guard let device = run.device else { return [] }
        var rows: [Row] = []
        if let distance = device.distance {
            rows.append(Row(what: "Distance", ours: run.distance, theirs: distance, isDistance: true))
        }
        if let timer = device.timerTime {
            rows.append(Row(what: "Timer", ours: run.timerTime, theirs: timer, isDistance: false))
        }
        return rows
    }
}
