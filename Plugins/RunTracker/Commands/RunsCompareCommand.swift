import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs compare A B [--json]`.
struct RunsCompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Two runs side by side: summaries, splits and, on the same route, the time gap along it.",
        discussion: """
            Differences are B minus A. Splits are per km or mile (the configured units). When both runs are on the \
            same route, the gap says at every 100 m of A's path how many seconds B is behind (+) or ahead (-) of A.
            """)
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The first run's id (A).") var a: String
    @Argument(help: "The second run's id (B).") var b: String

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let split = settings.split
            let comparison = try await usageErrors {
                try await opened.database.read { [a, b] db in
                    try RunComparison.make(a, b, unit: split.unit, unitDistance: split.distance, in: db)
                }
            }
            if store.json { return try store.printJSON(comparison) }
            print(text(comparison, settings: settings), terminator: "")
        }
    }

    func text(_ comparison: RunComparison, settings: ProgressSettings) -> String {
        let units = settings.units
        let a = comparison.a, b = comparison.b, difference = comparison.differences
        func row(_ label: String, _ first: String, _ second: String, _ change: String) -> String {
            "\(RunText.pad(label, 10))  \(RunText.pad(first, 22))  \(RunText.pad(second, 22))  \(change)"
        }
        func pace(_ value: Double?) -> String { TimeFormat.pace(secondsPerKilometre: value ?? .infinity, units: units) }
        // Two rides compare by speed (riders think in speed): B's average speed less A's.
        let rides = a.activity == .ride && b.activity == .ride
        func speed(_ pace: Double?) -> Double? { pace.flatMap { $0 > 0 && $0.isFinite ? 1000 / $0 : nil } }
        let speedChange =
            speed(b.averagePace).flatMap { second in speed(a.averagePace).map { second - $0 } }
            .map { ($0 < 0 ? "-" : "+") + TimeFormat.speed(metresPerSecond: abs($0), units: units) } ?? ""
        var lines = [
            row("", "A", "B", "B - A"),
            row("name", a.name, b.name, ""),
            row(
                "started", LocalTime.minute(a.startedAt, in: settings.timeZone),
                LocalTime.minute(b.startedAt, in: settings.timeZone), ""),
            row(
                "distance", DistanceFormat.string(metres: a.distance, units: units),
                DistanceFormat.string(metres: b.distance, units: units),
                ProgressText.signedDistance(difference.distance, units: units)),
            row(
                "elapsed", TimeFormat.duration(seconds: a.elapsedTime), TimeFormat.duration(seconds: b.elapsedTime),
                ProgressText.signedDuration(difference.elapsedTime)),
            row(
                "moving", TimeFormat.duration(seconds: a.movingTime), TimeFormat.duration(seconds: b.movingTime),
                ProgressText.signedDuration(difference.movingTime)),
            rides
                ? row(
                    "speed", PaceOrSpeed.text(secondsPerKilometre: a.averagePace, activity: .ride, units: units),
                    PaceOrSpeed.text(secondsPerKilometre: b.averagePace, activity: .ride, units: units), speedChange)
                : row(
                    "pace", pace(a.averagePace), pace(b.averagePace),
                    difference.averagePace.map {
                        ProgressText.signedDuration(units == .metric ? $0 : $0 * UnitSystem.metresPerMile / 1000)
                    } ?? ""),
            row(
                "ascent", ElevationText.string(metres: a.ascent, units: units),
                ElevationText.string(metres: b.ascent, units: units), "")
        ]
        if !comparison.splits.isEmpty {
            lines.append("splits (\(comparison.unit)):")
            for split in comparison.splits {
                lines.append(
                    "  \(RunText.pad(String(split.index), 4)) \(RunText.pad(split.a.map { TimeFormat.duration(seconds: $0) } ?? "--", 8)) "
                        + "\(RunText.pad(split.b.map { TimeFormat.duration(seconds: $0) } ?? "--", 8)) "
                        + (split.delta.map(ProgressText.signedDuration) ?? ""))
            }
        }
        guard comparison.sameRoute, let gap = comparison.gap else {
            lines.append("same route: no (the time gap along the route needs two runs of one route)")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(
            "same route: yes (route \(comparison.routeID.map(String.init) ?? "?")); B behind (+) or ahead (-) of A:")
        let unitDistance = units == .metric ? 1000 : UnitSystem.metresPerMile
        var nextMark = 0.0
        for (index, point) in gap.enumerated() where point.distance >= nextMark || index == gap.count - 1 {
            lines.append(
                "  \(RunText.pad(DistanceFormat.string(metres: point.distance, units: units), 8)) \(ProgressText.signedDuration(point.delta))"
            )
            nextMark = (point.distance / unitDistance).rounded(.down) * unitDistance + unitDistance
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
