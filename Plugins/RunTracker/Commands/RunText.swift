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
        let label = record.activity == .run ? record.distance.label : "\(record.distance.label) (\(record.activity.rawValue))"
        let value = record.distance == .longest ? DistanceFormat.string(metres: record.distanceMetres, units: units)
            : TimeFormat.duration(seconds: record.elapsedTime)
        return "\(pad(label, 14)) \(pad(value, 8)) \(pad(TimeFormat.pace(secondsPerKilometre: record.pace, units: units), 10)) \(date)  \(record.runName) [\(record.runID)]\(mark)"
    }

    /// `5 km (run): 2024-05-01 25:10, 2024-06-03 24:30 (-0:40), …`: when each record was set and by how much.
    static func progression(_ progression: RecordProgression, units: UnitSystem) -> String {
        let steps = progression.steps.map { step -> String in
            let date = ISO8601.string(from: step.achievedAt).prefix(10)
            if progression.distance == .longest {
                let gain = step.improvementMetres.map { " (+\(DistanceFormat.string(metres: $0, units: units)))" } ?? ""
                return "\(date) \(DistanceFormat.string(metres: step.distanceMetres, units: units))\(gain)"
            }
            let gain = step.improvementSeconds.map { " (-\(TimeFormat.duration(seconds: $0)))" } ?? ""
            return "\(date) \(TimeFormat.duration(seconds: step.elapsedTime))\(gain)"
        }
        return "  \(progression.distance.label) (\(progression.activity.rawValue)): " + steps.joined(separator: ", ")
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
