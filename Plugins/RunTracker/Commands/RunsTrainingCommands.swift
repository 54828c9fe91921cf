import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs fitness [--from DATE] [--to DATE] [--json]`.
struct RunsFitnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitness",
        abstract:
            "Fitness (CTL, 42 days), fatigue (ATL, 7 days) and form (TSB = CTL − ATL) day by day from the runs' training load."
    )
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "First day shown (default: 89 days before --to).") var from: String?
    @Option(
        name: .long, help: "Last day shown (default: today, or the latest run's day when that is over 42 days ago).")
    var to: String?

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let zone = style.timeZone
            let (first, last) = try await usageErrors {
                (
                    try from.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "--from", isUpperBound: false, timeZone: zone)
                    },
                    try to.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "--to", isUpperBound: false, timeZone: zone)
                    }
                )
            }
            let days = try await TrainingBook.fitness(
                settings: history.training, from: first, to: last, timeZone: zone, now: Date(),
                in: history.store.database)
            if store.json { return try store.printJSON(days) }
            guard !days.isEmpty else { return print("no saved runs with a training load in this time") }
            RunText.columns(
                [["date (\(zone.identifier))", "load", "fitness", "fatigue", "form"]]
                    + days.map { day in
                        [
                            day.date, NumberText.fixed(day.load, decimals: 0), NumberText.fixed(day.ctl, decimals: 1),
                            NumberText.fixed(day.atl, decimals: 1), NumberText.fixed(day.tsb, decimals: 1)
                        ]
                    }
            ).forEach { print($0) }
        }
    }
}

/// `meridian runs vdot [--at DATE] [--json]`.
struct RunsVdotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vdot",
        abstract:
            "The current VDOT (best of the 6 weeks up to the latest run of a mile or more) and race predictions from it and from Riegel's formula."
    )
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "The VDOT on this day: the best of the 6 weeks up to it.") var at: String?

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let moment = try await usageErrors {
                try at.map { text throws(RunHistoryError) in
                    try RunListQuery.parseBound(text, field: "--at", isUpperBound: true, timeZone: style.timeZone)
                }
            }
            guard let report = try await history.store.database.read({ db in try VdotBook.current(at: moment, in: db) })
            else {
                throw CommandFailure(
                    at.map {
                        "no run in the 6 weeks up to \($0) has a best effort of a mile or more; give a later --at"
                    }
                        ?? "no saved run has a best effort of a mile or more; import runs with 'meridian runs import'")
            }
            if store.json { return try store.printJSON(report) }
            let effort = report.from
            print(
                "VDOT \(NumberText.fixed(report.vdot, decimals: 1)) from \(DistanceFormat.string(metres: effort.distanceM, units: style.units)) in \(TimeFormat.duration(seconds: effort.elapsedS)) on \(LocalTime.day(effort.startedAt, in: style.timeZone)) (run \(effort.runId))"
            )
            RunText.columns(
                [["distance", "VDOT", "Riegel 1.06"]]
                    + report.predictions.map { prediction in
                        [
                            DistanceFormat.string(metres: prediction.distanceM, units: style.units),
                            prediction.timeSVdot.map { TimeFormat.duration(seconds: $0) } ?? "--",
                            TimeFormat.duration(seconds: prediction.timeSRiegel)
                        ]
                    }
            ).forEach { print($0) }
        }
    }
}
