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
    static func table(
        _ runs: [RunSummary], style: RunTextStyle, extra: (title: String, value: (RunSummary) -> String)? = nil
    ) -> [String] {
        let names = runs.map { shortened($0.name, to: nameWidth) }
        var rows = [
            ["started (\(style.timeZone.identifier))", "name", "activity", "distance", "elapsed", "pace/speed", "id"]
                + (extra.map { [$0.title] } ?? [])
        ]
        for (run, name) in zip(runs, names) {
            rows.append(
                [
                    LocalTime.minute(run.startedAt, in: style.timeZone), name, run.activity.rawValue,
                    DistanceFormat.string(metres: run.distance, units: style.units),
                    TimeFormat.duration(seconds: run.elapsedTime), averagePaceOrSpeed(run, units: style.units), run.id
                ]
                    + (extra.map { [$0.value(run)] } ?? []))
        }
        return columns(rows)
    }

    /// `rows` as lines with aligned columns (the last column is not padded).
    static func columns(_ rows: [[String]]) -> [String] {
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
        PaceOrSpeed.text(secondsPerKilometre: run.averagePace, activity: run.activity, units: units)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// The header of `record(_:style:)` lines.
    static let recordHeader =
        "\(pad("distance", 14)) \(pad("time", 8)) \(pad("pace/speed", 10)) \(pad("date", 10))  run"

    static func record(_ record: PersonalRecord, style: RunTextStyle) -> String {
        let date = LocalTime.day(record.achievedAt, in: style.timeZone)
        let mark = record.runDeleted == true ? "  (run deleted)" : ""
        let label =
            record.activity == .run ? record.distance.label : "\(record.distance.label) (\(record.activity.rawValue))"
        let value =
            record.distance == .longest
            ? DistanceFormat.string(metres: record.distanceMetres, units: style.units)
            : TimeFormat.duration(seconds: record.elapsedTime)
        let pace = PaceOrSpeed.text(secondsPerKilometre: record.pace, activity: record.activity, units: style.units)
        return "\(pad(label, 14)) \(pad(value, 8)) \(pad(pace, 10)) \(date)  \(record.runName) [\(record.runID)]\(mark)"
    }

    /// `5 km (run): 2024-05-01 25:10, 2024-06-03 24:30 (-0:40), …`: when each record was set and by how much.
    static func progression(_ progression: RecordProgression, style: RunTextStyle) -> String {
        let steps = progression.steps.map { step -> String in
            let date = LocalTime.day(step.achievedAt, in: style.timeZone)
            if progression.distance == .longest {
                let gain =
                    step.improvementMetres.map { " (+\(DistanceFormat.string(metres: $0, units: style.units)))" } ?? ""
                return "\(date) \(DistanceFormat.string(metres: step.distanceMetres, units: style.units))\(gain)"
            }
            let gain = step.improvementSeconds.map { " (-\(TimeFormat.duration(seconds: $0)))" } ?? ""
            return "\(date) \(TimeFormat.duration(seconds: step.elapsedTime))\(gain)"
        }
        return "  \(progression.distance.label) (\(progression.activity.rawValue)): " + steps.joined(separator: ", ")
    }

    /// A run object as a few lines of text: totals, then its sensors and the device's own figures when it has them.
    static func summary(_ run: RunSummary, style: RunTextStyle) -> [String] {
        let average = "avg \(PaceOrSpeed.label(run.activity))"
        return [
            "\(run.name) (\(run.activity.rawValue), \(run.state.rawValue)) id \(run.id)",
            "started \(LocalTime.minute(run.startedAt, in: style.timeZone)) (\(style.timeZone.identifier))",
            "distance \(DistanceFormat.string(metres: run.distance, units: style.units))  timer \(TimeFormat.duration(seconds: run.timerTime))  "
                + "moving \(TimeFormat.duration(seconds: run.movingTime))  elapsed \(TimeFormat.duration(seconds: run.elapsedTime))",
            "\(average) \(averagePaceOrSpeed(run, units: style.units))  "
                + "max speed \(TimeFormat.speed(metresPerSecond: run.maxSpeed, units: style.units))  "
                + "ascent \(ElevationText.string(metres: run.ascent, units: style.units))  descent \(ElevationText.string(metres: run.descent, units: style.units))",
            "points \(run.pointCount) (\(run.rejectedPointCount) not on the route)  segments \(run.segmentCount)"
        ] + sensors(run) + device(run, units: style.units) + (run.salvaged.map { ["salvaged: " + salvage($0)] } ?? [])
    }

    /// `heart rate 142 bpm (max 171)  cadence 84 spm  power 212 W`, or nothing without sensors.
    static func sensors(_ run: RunSummary) -> [String] {
        var parts: [String] = []
        if let heartRate = run.averageHeartRate {
            parts.append(
                "heart rate \(Int(heartRate.rounded())) bpm"
                    + (run.maxHeartRate.map { " (max \(Int($0.rounded())))" } ?? ""))
        }
        if let cadence = run.averageCadence {
            parts.append("cadence \(Int(cadence.rounded())) \(run.activity.countsSteps ? "spm" : "rpm")")
        }
        if let power = run.averagePower { parts.append("power \(Int(power.rounded())) W") }
        return parts.isEmpty ? [] : [parts.joined(separator: "  ")]
    }

    /// `the file is damaged at byte 751 (unexpected end of file …); what came before was imported`.
    static func salvage(_ mark: SalvageMark) -> String {
        "the file is damaged at byte \(mark.byteOffset) (\(mark.reason)); what came before was imported"
    }

    /// `device garmin fr110: distance 4.8 km (Meridian 4.7 km, −2.4 %)  timer 43:45 (Meridian 43:44, −0.0 %)`, or
    /// nothing for a run that was not imported from a device's file.
    static func device(_ run: RunSummary, units: UnitSystem) -> [String] {
        guard let device = run.device else { return [] }
        let rows = DeviceComparison.rows(run).map { row in
            "\(row.what.lowercased()) \(row.text(row.theirs, units: units)) (Meridian \(row.text(row.ours, units: units)), \(row.difference))"
        }
        return ["device \(device.name ?? "unnamed")" + (rows.isEmpty ? "" : ": " + rows.joined(separator: "  "))]
    }

    /// The time in each heart-rate zone: a header line and one line per zone, the time below the first included.
    static func zones(_ zones: HeartRateZones) -> [String] {
        [
            "heart rate zones (of max \(Int(zones.maxHeartRate.rounded())) bpm):",
            "  \(pad("zone", 5)) \(pad("bpm", 9)) \(pad("time", 8)) share"
        ] + zones.rows.map { row in "  \(pad(row.zone, 5)) \(pad(row.range, 9)) \(pad(row.time, 8)) \(row.share)" }
    }
}
