import Foundation
import MeridianCore

/// How the `meridian runs` commands show figures and times: the configuration's units and time zone.
struct RunTextStyle {
    var units: UnitSystem = .metric
    var timeZone: TimeZone = .current
}

/// Runs and records as text for the `meridian runs` commands.
enum RunText {
    /// Names longer than this are shortened at a word boundary in tables.
    static let nameWidth = 40

    /// Runs as a table with a header: start (in the style's time zone, named in the header), name, activity,
    /// distance, elapsed time, and average pace, or average speed for rides. `extra` adds a last column.
    static func table(_ runs: [RunSummary], style: RunTextStyle, extra: (title: String, value: (RunSummary) -> String)? = nil) -> [String] {
        let names = runs.map { shortened($0.name, to: nameWidth) }
        var rows = [["started (\(style.timeZone.identifier))", "name", "activity", "distance", "elapsed", "pace/speed", "id"]
            + (extra.map { [$0.title] } ?? [])]
        for (run, name) in zip(runs, names) {
            rows.append([LocalTime.minute(run.startedAt, in: style.timeZone), name, run.activity.rawValue,
                         DistanceFormat.string(metres: run.distance, units: style.units),
                         TimeFormat.duration(seconds: run.elapsedTime), averagePaceOrSpeed(run, units: style.units), run.id]
                         + (extra.map { [$0.value(run)] } ?? []))
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in column == row.count - 1 ? text : pad(text, widths[column]) }
                .joined(separator: "  ")
        }
    }

    /// `name`, shortened to at most `width` characters at a word boundary with "…" (a single long word is cut).
    static func shortened(_ name: String, to width: Int) -> String {
        guard name.count > width else { return name }
        let room = name.prefix(width - 1)
        if let space = room.lastIndex(of: " "), room.distance(from: room.startIndex, to: space) >= width / 2 {
            return room[..<space].trimmingCharacters(in: .whitespaces) + "…"
        }
        return room + "…"
    }

    /// Average pace, or average speed for a ride (riders think in speed).
    static func averagePaceOrSpeed(_ run: RunSummary, units: UnitSystem) -> String {
        let pace = run.averagePace ?? .infinity
        guard run.activity == .ride else { return TimeFormat.pace(secondsPerKilometre: pace, units: units) }
        return TimeFormat.speed(metresPerSecond: pace.isFinite && pace > 0 ? 1000 / pace : 0, units: units)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// The header of `record(_:style:)` lines.
    static let recordHeader = "\(pad("distance", 14)) \(pad("time", 8)) \(pad("pace", 10)) \(pad("date", 10))  run"

    static func record(_ record: PersonalRecord, style: RunTextStyle) -> String {
        let date = LocalTime.day(record.achievedAt, in: style.timeZone)
        let mark = record.runDeleted == true ? "  (run deleted)" : ""
        let label = record.activity == .run ? record.distance.label : "\(record.distance.label) (\(record.activity.rawValue))"
        let value = record.distance == .longest ? DistanceFormat.string(metres: record.distanceMetres, units: style.units)
            : TimeFormat.duration(seconds: record.elapsedTime)
        return "\(pad(label, 14)) \(pad(value, 8)) \(pad(TimeFormat.pace(secondsPerKilometre: record.pace, units: style.units), 10)) \(date)  \(record.runName) [\(record.runID)]\(mark)"
    }

    /// `5 km (run): 2024-05-01 25:10, 2024-06-03 24:30 (-0:40), …`: when each record was set and by how much.
    static func progression(_ progression: RecordProgression, style: RunTextStyle) -> String {
        let steps = progression.steps.map { step -> String in
            let date = LocalTime.day(step.achievedAt, in: style.timeZone)
            if progression.distance == .longest {
                let gain = step.improvementMetres.map { " (+\(DistanceFormat.string(metres: $0, units: style.units)))" } ?? ""
                return "\(date) \(DistanceFormat.string(metres: step.distanceMetres, units: style.units))\(gain)"
            }
            let gain = step.improvementSeconds.map { " (-\(TimeFormat.duration(seconds: $0)))" } ?? ""
            return "\(date) \(TimeFormat.duration(seconds: step.elapsedTime))\(gain)"
        }
        return "  \(progression.distance.label) (\(progression.activity.rawValue)): " + steps.joined(separator: ", ")
    }

    /// A run object as a few lines of text.
    static func summary(_ run: RunSummary, style: RunTextStyle) -> [String] {
        let average = run.activity == .ride ? "avg speed" : "avg pace"
        return [
            "\(run.name) (\(run.activity.rawValue), \(run.state.rawValue)) id \(run.id)",
            "started \(LocalTime.minute(run.startedAt, in: style.timeZone)) (\(style.timeZone.identifier))",
            "distance \(DistanceFormat.string(metres: run.distance, units: style.units))  timer \(TimeFormat.duration(seconds: run.timerTime))  "
                + "moving \(TimeFormat.duration(seconds: run.movingTime))  elapsed \(TimeFormat.duration(seconds: run.elapsedTime))",
            "\(average) \(averagePaceOrSpeed(run, units: style.units))  "
                + "max speed \(TimeFormat.speed(metresPerSecond: run.maxSpeed, units: style.units))  "
                + "ascent \(ElevationText.string(metres: run.ascent, units: style.units))  descent \(ElevationText.string(metres: run.descent, units: style.units))",
            "points \(run.pointCount) (\(run.rejectedPointCount) not on the route)  segments \(run.segmentCount)",
        ]
    }
}
