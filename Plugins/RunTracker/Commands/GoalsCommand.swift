import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian goals [list|add|remove]`: targets of distance or time per week, month or year, and how far each is.
struct GoalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals",
        abstract: "Distance or time goals per week, month or year, with their progress.",
        subcommands: [GoalsListCommand.self, GoalsAddCommand.self, GoalsRemoveCommand.self],
        defaultSubcommand: GoalsListCommand.self)
}

/// `meridian goals list [--json]`.
struct GoalsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Every goal and its progress in the current week, month or year.")
    @OptionGroup var store: RunsStoreOptions

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let goals = try await history.store.database.read { db in
                try GoalBook.progress(now: Date(), timeZone: style.timeZone, units: style.units, in: db)
            }
            if store.json { return try store.printJSON(GoalRoutes.GoalList(goals: goals)) }
            guard !goals.isEmpty else {
                return print("no goals; set one with meridian goals add --per week --distance 50")
            }
            RunText.columns(
                [["id", "goal", "period", "progress"]]
                    + goals.map { progress in
                        [
                            String(progress.goal.id), GoalText.title(progress.goal, units: style.units),
                            progress.period.label, progress.text
                        ]
                    }
            ).forEach { print($0) }
        }
    }
}

/// `meridian goals add --per week|month|year (--distance N | --time H:MM) [--activity run] [--json]`.
struct GoalsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Set a goal of distance or moving time per week, month or year.")
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "week (ISO, Monday to Sunday), month or year, in the configured time zone.")
    var per: String
    @Option(name: .long, help: "Distance in the configured units (km, or miles with units: imperial).")
    var distance: Double?
    @Option(name: .long, help: "Moving time as H:MM or H:MM:SS.") var time: String?
    @Option(name: .long, help: "The activity counted (run, walk, hike, ride, other).") var activity = "run"

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let request = try await usageErrors {
                try GoalRequest(
                    activity: try RunFilter.parseActivity(activity, field: "--activity"),
                    period: try StatsPeriod.parse(per, field: "--per"),
                    distance: distance.map { $0 * (style.units == .metric ? 1000 : UnitSystem.metresPerMile) },
                    time: try time.map { text throws(RunHistoryError) in try Self.seconds(text) },
                    names: ("--distance", "--time"))
            }
            let goal = try await history.store.database.write { db in try GoalBook.add(request, now: Date(), in: db) }
            if store.json { return try store.printJSON(goal) }
            print("goal \(goal.id): \(GoalText.title(goal, units: style.units))")
        }
    }

    /// Seconds of `H:MM` or `H:MM:SS`.
    static func seconds(_ text: String) throws(RunHistoryError) -> Double {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0) }
        guard (2...3).contains(parts.count), values.count == parts.count, values.allSatisfy({ $0 >= 0 }),
            values.dropFirst().allSatisfy({ $0 < 60 })
        else { throw .invalid(field: "--time", message: "'\(text)' is not a time; give H:MM or H:MM:SS, e.g. 5:00") }
        return Double(values[0] * 3600 + values[1] * 60 + (values.count == 3 ? values[2] : 0))
    }
}

/// `meridian goals remove ID`.
struct GoalsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a goal.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The goal's id (meridian goals list).") var id: Int64

    func run() async throws {
        try await reportingFailures {
            let (history, _) = try store.openStyled()
            do {
                try await history.store.database.write { [id] db in try GoalBook.remove(id: id, in: db) }
            } catch let error as GoalError {
                throw CommandFailure(error.description)
            }
            print("removed goal \(id)")
        }
    }
}
