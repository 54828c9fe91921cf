import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian gear add|list|edit|retire|assign|delete`: shoes and bikes, and the distance they have done.
struct GearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gear",
        abstract: "Shoes and bikes: the distance each has done, retirement, and a default per activity.",
        discussion: """
            An item's distance is its start distance plus the saved runs it is assigned to (deleted runs count \
            again once restored). New runs get their activity's default item. Distances are written with a unit \
            (800km, 500mi, 1200m); a bare number is in the configuration's unit (km, or miles with units: imperial).
            """,
        subcommands: [
            GearAddCommand.self, GearListCommand.self, GearEditCommand.self, GearRetireCommand.self,
            GearAssignCommand.self, GearDeleteCommand.self
        ])

    /// The book and the units of the configuration; `creating` makes the database when there is none (`gear add`).
    static func open(_ store: RunsStoreOptions, creating: Bool = false) throws -> (GearBook, RunTextStyle) {
        guard creating else {
            let (history, style) = try store.openStyled()
            return (GearBook(store: history.store), style)
        }
        let config = try store.location.loadConfig()
        let opened = try store.location.openStore(config)
        try RunTrackerSchema.migrate(opened)
        return (
            GearBook(store: opened),
            RunTextStyle(units: config?.units ?? .metric, timeZone: config?.timeZone ?? .current)
        )
    }

    /// Runs `body`, turning gear errors into command failures (exit 2 for bad input, 1 for the rest).
    static func failing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GearError {
            if case .invalid = error { throw CommandFailure(error.description, code: 2) }
            throw CommandFailure(error.description, code: 1)
        }
    }

    /// `800km`, `500mi`, `1200m`, or a bare number in `units`' long unit, in metres.
    static func metres(_ text: String, option: String, units: UnitSystem) throws(CommandFailure) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let suffixes: [(String, Double)] = [("km", 1000), ("mi", UnitSystem.metresPerMile), ("m", 1)]
        let (number, factor) =
            suffixes.first { trimmed.hasSuffix($0.0) }.map { (String(trimmed.dropLast($0.0.count)), $0.1) }
            ?? (trimmed, units == .metric ? 1000 : UnitSystem.metresPerMile)
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            throw CommandFailure("\(option) '\(text)' is not a distance; write e.g. 800km, 500mi or 1200m", code: 2)
        }
        return value * factor
    }

    /// One line per item, with a header.
    static func table(_ gear: [Gear], units: UnitSystem) -> [String] {
        let distance = { (metres: Double) in DistanceFormat.string(metres: metres, units: units) }
        return RunText.columns(
            [["id", "name", "kind", "activity", "distance", "runs", "retire at", "status"]]
                + gear.map { item in
                    [
                        "\(item.id)", RunText.shortened(item.name, to: RunText.nameWidth), item.kind,
                        item.activity.rawValue, distance(item.distanceM), "\(item.runCount)",
                        item.retireDistanceM.map(distance) ?? "–", status(item)
                    ]
                })
    }

    /// "default", "past retirement", "retired" or "in use".
    static func status(_ item: Gear) -> String {
        var words: [String] = []
        if item.default { words.append("default") }
        if item.retiredAt != nil {
            words.append("retired")
        } else if item.pastRetirement {
            words.append("past its retirement distance: retire it with `meridian gear retire \(item.id)`")
        }
        return words.isEmpty ? "in use" : words.joined(separator: ", ")
    }
}

/// Options that set an item's distances and default.
struct GearFieldOptions: ParsableArguments {
    @Option(name: .long, help: "Distance it had done before (e.g. 120km; default 0).") var start: String?
    @Option(name: .long, help: "Distance at which to retire it (e.g. 800km).") var retire: String?
    @Flag(name: .long, inversion: .prefixedNo, help: "New runs of its activity get it.") var `default`: Bool?

    func change(units: UnitSystem) throws -> GearChange {
        GearChange(
            startDistance: try start.map { text throws(CommandFailure) in
                try GearCommand.metres(text, option: "--start", units: units)
            },
            retireDistance: try retire.map { text throws(CommandFailure) in
                try GearCommand.metres(text, option: "--retire", units: units)
            }, isDefault: self.default)
    }
}

/// `meridian gear add NAME --activity A [--start D] [--retire D] [--default]`.
struct GearAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a pair of shoes or a bike.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Its name (unique).") var name: String
    @Option(name: .long, help: "The activity it is for: run, walk, hike, ride or other.") var activity: String
    @OptionGroup var fields: GearFieldOptions

    func run() async throws {
        try await reportingFailures {
            let (book, style) = try GearCommand.open(store, creating: true)
            let gear = try await GearCommand.failing {
                var change = try fields.change(units: style.units)
                change.name = name
                change.activity = try GearChange.activity(activity)
                return try await book.add(change)
            }
            if store.json { return try store.printJSON(gear) }
            print("added gear \(gear.id): \(gear.name) (\(gear.kind) for \(gear.activity.rawValue)s)")
        }
    }
}

/// `meridian gear list`.
struct GearListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List gear with the distance each has done; retired items last.")
    @OptionGroup var store: RunsStoreOptions

    func run() async throws {
        try await reportingFailures {
            let (book, style) = try GearCommand.open(store)
            let gear = try await book.list()
            if store.json { return try store.printJSON(["gear": gear]) }
            guard !gear.isEmpty else {
                return print("no gear yet; add some with `meridian gear add NAME --activity run --retire 800km`")
            }
            GearCommand.table(gear, units: style.units).forEach { print($0) }
        }
    }
}

/// `meridian gear edit GEAR [--name N] [--start D] [--retire D] [--default|--no-default]`.
struct GearEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change an item.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The item's id or name.") var gear: String
    @Option(name: .long, help: "A new name.") var name: String?
    @OptionGroup var fields: GearFieldOptions

    func run() async throws {
        try await reportingFailures {
            let (book, style) = try GearCommand.open(store)
            let item = try await GearCommand.failing {
                var change = try fields.change(units: style.units)
                change.name = name
                return try await book.update(gear, change)
            }
            if store.json { return try store.printJSON(item) }
            GearCommand.table([item], units: style.units).forEach { print($0) }
        }
    }
}

/// `meridian gear retire GEAR [--undo]`.
struct GearRetireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire", abstract: "Retire an item: it stays listed with its distance, and is no default.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The item's id or name.") var gear: String
    @Flag(name: .long, help: "Put a retired item back in use.") var undo = false

    func run() async throws {
        try await reportingFailures {
            let (book, style) = try GearCommand.open(store)
            let item = try await GearCommand.failing { try await book.update(gear, GearChange(retired: !undo)) }
            if store.json { return try store.printJSON(item) }
            print(
                "\(undo ? "back in use" : "retired"): \(item.name) after "
                    + DistanceFormat.string(metres: item.distanceM, units: style.units))
        }
    }
}

/// `meridian gear assign GEAR --run ID` (`none` takes the run's gear away).
struct GearAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign", abstract: "Say which item a run used (`none`: no gear).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The item's id or name, or none.") var gear: String
    @Option(name: .long, help: "The run's id.") var run: String

    func run() async throws {
        try await reportingFailures {
            let (book, style) = try GearCommand.open(store)
            let runGear = try await usageErrors {
                try await GearCommand.failing { try await book.assign(gear == "none" ? nil : gear, runID: run) }
            }
            if store.json { return try store.printJSON(RunGearReply(runId: run, gear: runGear)) }
            guard let runGear else { return print("run \(run) has no gear now") }
            print("run \(run): \(runGear.text(units: style.units))")
        }
    }
}

/// The gear of one run: `{"run_id", "gear"}` (`PUT /v1/runs/{id}/gear` and `gear assign --json`).
struct RunGearReply: Encodable {
    var runId: String
    @NullWhenAbsent var gear: RunGear?
}

/// `meridian gear delete GEAR`.
struct GearDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete an item (its runs keep no gear; retiring keeps it listed).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The item's id or name.") var gear: String

    func run() async throws {
        try await reportingFailures {
            let (book, _) = try GearCommand.open(store)
            try await GearCommand.failing { try await book.delete(gear) }
            print(store.json ? try MeridianJSON.string(["deleted": gear]) : "deleted gear \(gear)")
        }
    }
}
