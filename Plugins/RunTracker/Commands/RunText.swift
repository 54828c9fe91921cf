import MeridianCore

/// Runs and records as text for the `meridian runs` commands.
enum RunText {
    static func line(_ run: RunSummary, units: UnitSystem) -> String {
        let date = ISO8601.string(from: run.startedAt).prefix(16).replacingOccurrences(of: "T", with: " ")
        let pace = TimeFormat.pace(secondsPerKilometre: run.averagePace ?? .infinity, units: units)
        return [date, pad(run.name, 28), pad(run.activity.rawValue, 5), pad(DistanceFormat.string(metres: run.distance, units: units), 8),
                pad(TimeFormat.duration(seconds: run.elapsedTime), 8), pad(pace, 10), run.id].joined(separator: "  ")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func record(_ record: PersonalRecord, units: UnitSystem) -> String {
        let date = ISO8601.string(from: record.achievedAt).prefix(10)
        let mark = record.runDeleted == true ? "  (run deleted)" : ""
        return "\(pad(record.distance.label, 14)) \(pad(TimeFormat.duration(seconds: record.elapsedTime), 8)) \(pad(TimeFormat.pace(secondsPerKilometre: record.pace, units: units), 10)) \(date)  \(record.runName) [\(record.runID)]\(mark)"
    }

    /// A run object as a few lines of text.
    static func summary(_ run: RunSummary, units: UnitSystem = .metric) -> [String] {
        [
            "\(run.name) (\(run.activity.rawValue), \(run.state.rawValue)) id \(run.id)",
            "distance \(DistanceFormat.string(metres: run.distance, units: units))  timer \(TimeFormat.duration(seconds: run.timerTime))  "
                + "moving \(TimeFormat.duration(seconds: run.movingTime))  elapsed \(TimeFormat.duration(seconds: run.elapsedTime))",
            "avg pace \(TimeFormat.pace(secondsPerKilometre: run.averagePace ?? .infinity, units: units))  "
                + "max speed \(TimeFormat.speed(metresPerSecond: run.maxSpeed, units: units))  "
                + "ascent \(ElevationText.string(metres: run.ascent, units: units))  descent \(ElevationText.string(metres: run.descent, units: units))",
            "points \(run.pointCount) (\(run.rejectedPointCount) not on the route)  segments \(run.segmentCount)",
        ]
    }
}
