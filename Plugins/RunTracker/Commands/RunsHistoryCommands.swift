import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// Where the history commands find the database (see `StoreLocationOptions`), and their output format.
struct RunsStoreOptions: ParsableArguments {
    @OptionGroup var location: StoreLocationOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    /// The opened store (tables created or updated) and the units for text output.
    func open() throws -> (RunHistory, UnitSystem) {
        let (history, style) = try openStyled()
        return (history, style.units)
    }

    /// The opened store and how text output shows figures and times (the configuration's units and time zone).
    func openStyled() throws -> (RunHistory, RunTextStyle) {
        let config = try location.loadConfig()
        let store = try location.openExistingStore(config)
        try RunTrackerSchema.migrate(store)
        let options = try RunsImportCommand.trackerOptions(config)
        try PrivacyBook.synchronise(options.privacy.zones, in: store)
        return (
            RunHistory(store: store, training: options.training),
            RunTextStyle(units: config?.units ?? .metric, timeZone: config?.timeZone ?? .current)
        )
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(value), as: UTF8.self))
    }
}

/// `meridian runs list`.
struct RunsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List saved runs (or drafts, or deleted runs), newest first.")
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "Runs per page (1...200).") var limit = 50
    @Option(name: .long, help: "Continue after this cursor (printed at the end of a page).") var cursor: String?
    @Option(name: [.short, .long], help: "Only runs whose name contains this text.") var name: String?
    @Option(name: .long, help: "Only runs started on or after this date (2024-05-01 or an ISO 8601 time).") var from:
        String?
    @Option(name: .long, help: "Only runs started on or before this date (a bare date includes the whole day).") var to:
        String?
    @Option(name: .long, help: "Only runs of this activity: run, walk, hike, ride or other.") var activity: String?
    @Flag(name: .long, help: "List deleted runs that can still be restored.") var deleted = false
    @Flag(
        name: .long,
        help:
            "List drafts: live runs stopped too short to save, to discard (only the one just stopped can be resumed, within an hour)."
    ) var drafts = false

    func run() async throws {
        try await reportingFailures {
            guard RunListQuery.limits.contains(limit) else {
                throw CommandFailure(
                    "--limit \(limit) is outside \(RunListQuery.limits.lowerBound)...\(RunListQuery.limits.upperBound)",
                    code: 2)
            }
            guard !(deleted && drafts) else { throw CommandFailure("give --deleted or --drafts, not both", code: 2) }
            let (history, style) = try store.openStyled()
            let query: RunListQuery
            do {
                query = RunListQuery(
                    limit: limit, cursor: try cursor.map { text throws(RunHistoryError) in try RunCursor(token: text) },
                    name: name,
                    from: try from.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(
                            text, field: "--from", isUpperBound: false, timeZone: style.timeZone)
                    },
                    to: try to.map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "--to", isUpperBound: true, timeZone: style.timeZone)
                    },
                    activity: try activity.map { text throws(RunHistoryError) in
                        try RunFilter.parseActivity(text, field: "--activity")
                    },
                    deleted: deleted, drafts: drafts)
            } catch {
                throw CommandFailure("\(error)", code: 2)
            }
            let page = try await history.list(query)
            if store.json { return try store.printJSON(page) }
            if page.runs.isEmpty { print(deleted ? "No deleted runs." : drafts ? "No drafts." : "No runs.") }
            let purges = Dictionary(
                uniqueKeysWithValues: page.runs.compactMap { item in item.purgeAt.map { (item.run.id, $0) } })
            let extra: (title: String, value: (RunSummary) -> String)? =
                deleted
                ? ("purged", { run in purges[run.id].map { LocalTime.day($0, in: style.timeZone) } ?? "" }) : nil
            if !page.runs.isEmpty {
                RunText.table(page.runs.map(\.run), style: style, extra: extra).forEach { print($0) }
            }
            if let next = page.nextCursor { print("more: \(continuation(next))") }
        }
    }

    /// The command that lists the next page: these options (filters, store) with the new cursor.
    private func continuation(_ cursor: String) -> String {
        var words = ["meridian", "runs", "list"]
        let options: [(String, String?)] = [
            ("--config", store.location.config), ("--db", store.location.db),
            ("--limit", limit == 50 ? nil : String(limit)), ("--name", name), ("--from", from), ("--to", to)
        ]
        for case (let option, let value?) in options { words += [option, ShellWord.quoted(value)] }
        if deleted { words.append("--deleted") }
        if drafts { words.append("--drafts") }
        return (words + ["--cursor", cursor]).joined(separator: " ")
    }
}

/// `meridian runs show ID`.
struct RunsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a run with splits, laps, gear, records and data quality.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: .long, help: "Most points in the simplified route (JSON).") var maxPoints = RunAnalysis
        .defaultMaxPoints
    @OptionGroup var privacy: PrivacyFlags

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let units = style.units
            let detail = try await history.detail(
                id: id, maxPoints: max(2, maxPoints), keepPrivate: privacy.keepPrivate)
            if store.json { return try store.printJSON(detail) }
            let run = detail.run
            RunText.summary(run, style: style).forEach { print($0) }
            if !run.notes.isEmpty { print("notes: \(run.notes)") }
            if let load = detail.trainingLoad { print("training load: \(TrainingText.load(load))") }
            let table = detail.analysis.splits.first { $0.unit == (units == .metric ? "km" : "mile") }
            let splits = table?.splits ?? []
            let heartRate = splits.contains { $0.averageHeartRate != nil }
            if !splits.isEmpty {
                print(
                    "  \(RunText.pad("split", 5)) \(RunText.pad("distance", 8)) \(RunText.pad("time", 8)) "
                        + (heartRate
                            ? "\(RunText.pad(PaceOrSpeed.label(run.activity), 10)) heart rate"
                            : PaceOrSpeed.label(run.activity)))
            }
            for split in splits {
                var flag = ""
                if split.index == table?.fastest { flag = "  fastest" }
                if split.index == table?.slowest { flag = "  slowest" }
                let pace = PaceOrSpeed.text(secondsPerKilometre: split.pace, activity: run.activity, units: units)
                let beats = heartRate ? " " + (split.averageHeartRate.map { "\(Int($0.rounded())) bpm" } ?? "–") : ""
                print(
                    "  \(RunText.pad("\(split.index)\(split.partial ? "*" : "")", 5)) \(RunText.pad(DistanceFormat.string(metres: split.distance, units: units), 8)) \(RunText.pad(TimeFormat.duration(seconds: split.timerTime), 8)) \(heartRate ? RunText.pad(pace, 10) : pace)\(beats)\(flag)"
                )
            }
            if !detail.laps.isEmpty {
                print("laps:\n\(LapText.header(activity: run.activity))")
                for lap in detail.laps { print(LapText.row(lap, activity: run.activity, units: units)) }
            }
            if let gear = detail.gear { print("gear: \(gear.text(units: units))") }
            if let zones = detail.analysis.heartRateZones { RunText.zones(zones).forEach { print($0) } }
            let route = detail.analysis.route
            print(
                "route: straight line \(DistanceFormat.string(metres: route.straightLine, units: units)), "
                    + (route.efficiency.map { "efficiency \(NumberText.fixed($0, decimals: 2))" } ?? "loop"))
            let quality = detail.analysis.quality
            let accuracy = quality.accuracyP50.map { DistanceFormat.string(metres: $0, units: units) } ?? "--"
            print(
                "data: \(Counted.string(quality.received, "point")), \(quality.rejected) rejected, \(Counted.string(quality.gaps.count, "gap")) (\(TimeFormat.duration(seconds: quality.gapTime))), accuracy p50 \(accuracy)"
            )
            let records = detail.newRecords.sorted {
                ($0.activity.rawValue, $0.distance) < ($1.activity.rawValue, $1.distance)
            }
            if !records.isEmpty { print("new records:\n  \(RunText.recordHeader)") }
            for record in records { print("  \(RunText.record(record, style: style))") }
        }
    }
}

/// `meridian runs edit ID --name … --notes …`.
struct RunsEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a run's name or notes (every change is logged).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: .long, help: "New name.") var name: String?
    @Option(name: .long, help: "New notes.") var notes: String?

    func run() async throws {
        try await reportingFailures {
            guard name != nil || notes != nil else { throw CommandFailure("give --name, --notes or both", code: 2) }
            let (history, style) = try store.openStyled()
            let run: RunSummary
            do {
                run = try await history.edit(id: id, RunEdit(name: name, notes: notes))
            } catch let error as RunHistoryError {
                throw CommandFailure(error.description, code: 2)
            }
            if store.json { return try store.printJSON(run) }
            RunText.table([run], style: style).forEach { print($0) }
        }
    }
}

/// `meridian runs delete ID…`.
struct RunsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete runs (restorable for 30 days).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run ids.") var ids: [String]

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let receipt = try await history.delete(ids: ids)
            if store.json { return try store.printJSON(receipt) }
            print(
                "deleted \(Counted.string(receipt.deleted.count, "run")); restore with `meridian runs restore ID` until \(LocalTime.day(receipt.purgeAt, in: style.timeZone))"
            )
        }
    }
}

/// `meridian runs restore ID…`.
struct RunsRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Restore deleted runs.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run ids.") var ids: [String]

    func run() async throws {
        try await reportingFailures {
            let (history, style) = try store.openStyled()
            let runs = try await history.restore(ids: ids)
            if store.json { return try store.printJSON(runs) }
            print("restored \(Counted.string(runs.count, "run")):")
            RunText.table(runs, style: style).forEach { print($0) }
        }
    }
}

/// `meridian runs records`.
struct RunsRecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records", abstract: "Personal records and their history.")
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "Only this record: 1k, mile, 5k, 10k, 20k, half_marathon, 40k, marathon, 100k, longest.")
    var distance: String?
    @Option(name: .long, help: "Only this activity's records: run, ride or hike.") var activity: String?
    @Flag(name: .long, help: "Also print when each record was set and by how much it improved, and the record history.")
    var history = false
    @Flag(name: .long, help: "Recompute every run's best efforts first.") var rebuild = false

    func run() async throws {
        try await reportingFailures {
            let (runs, style) = try store.openStyled()
            var only: RecordDistance?
            if let distance {
                guard let value = RecordDistance(rawValue: distance) else {
                    throw CommandFailure(
                        "--distance must be one of \(RecordDistance.allCases.map(\.rawValue).joined(separator: ", ")), got '\(distance)'",
                        code: 2)
                }
                only = value
            }
            let kind: Activity?
            do throws(RunHistoryError) {
                kind = try activity.map { text throws(RunHistoryError) in
                    try RunFilter.parseActivity(text, field: "--activity")
                }
            } catch {
                throw CommandFailure(error.description, code: 2)
            }
            if rebuild { try await runs.rebuildRecords() }
            let report = try await runs.records(distance: only, activity: kind)
            if store.json { return try store.printJSON(report) }
            if report.records.isEmpty { print("No records yet (records come from saved runs, rides and hikes).") }
            if !report.records.isEmpty { print(RunText.recordHeader) }
            for record in report.records { print(RunText.record(record, style: style)) }
            if history {
                print("progression:")
                for progression in report.progression { print(RunText.progression(progression, style: style)) }
                print("history:")
                for record in report.history { print("  " + RunText.record(record, style: style)) }
            }
        }
    }
}

/// `meridian runs export ID [--format gpx|tcx|geojson|fit] [-o FILE]`.
struct RunsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export a run as GPX 1.1, TCX v2, GeoJSON or FIT.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(
        name: .long,
        help:
            "gpx, tcx, geojson or fit (default: from the --output file's ending, else gpx). GPX, TCX and FIT import back with 'meridian runs import'; GeoJSON is for maps and cannot be imported."
    ) var format: String?
    @Option(
        name: .long,
        help:
            "TCX and FIT laps: device (the device's laps of an imported run, else km), km (one per kilometre) or single."
    ) var laps = "device"
    @Option(
        name: [.short, .long],
        help: "Write to this file, ending in .gpx, .tcx, .geojson or .fit (default: standard output).") var output:
        String?
    @OptionGroup var privacy: PrivacyFlags
    @Flag(
        name: .long,
        help:
            "Times from the start instead of the day and hour: the run starts at 1989-12-31T00:00:00Z, the FIT epoch.")
    var relativeTime = false

    func run() async throws {
        try await reportingFailures {
            let given = try self.format.map { text throws(CommandFailure) in
                guard let format = ExportFormat(rawValue: text) else {
                    throw CommandFailure("--format must be gpx, tcx, geojson or fit, got '\(text)'", code: 2)
                }
                return format
            }
            let extensions = Dictionary(uniqueKeysWithValues: ExportFormat.allCases.map { ($0.fileExtension, $0) })
            let format = try OutputFormat.choose(given: given, output: output, extensions: extensions, fallback: .gpx)
            guard let laps = TCXExport.Laps(rawValue: laps) else {
                throw CommandFailure("--laps must be device, km or single, got '\(self.laps)'", code: 2)
            }
            let (history, _) = try store.open()
            let (run, points) = try await history.track(id: id)
            try write(
                format.file(
                    run: run, points: points, laps: laps, deviceLaps: try await history.laps(id: id),
                    privacy: try await history.privacyZones(keepPrivate: privacy.keepPrivate),
                    relativeTime: relativeTime),
                to: output)
        }
    }
}

/// `meridian runs render ID -o FILE.svg`.
struct RunsRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Draw a run's route and profile as SVG.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: [.short, .long], help: "SVG file to write, ending in .svg (default: standard output).") var output:
        String?
    @Option(name: .long, help: "Picture width in pixels (320...4000).") var width = RouteRenderer.defaultWidth
    @OptionGroup var privacy: PrivacyFlags

    /// The only format `render` writes.
    enum Picture: String { case svg }

    func run() async throws {
        try await reportingFailures {
            _ = try OutputFormat.choose(given: nil, output: output, extensions: ["svg": Picture.svg], fallback: .svg)
            guard (320...4000).contains(width) else {
                throw CommandFailure("--width \(width) is outside 320...4000 pixels", code: 2)
            }
            let (history, units) = try store.open()
            let (run, points) = try await history.track(id: id)
            let zones = try await history.privacyZones(keepPrivate: privacy.keepPrivate)
            try write(
                Data(RouteRenderer(units: units, width: width).svg(run: run, points: points, privacy: zones).utf8),
                to: output)
        }
    }
}

/// Writes `text` to `path`, or to standard output.
func write(_ data: Data, to path: String?) throws {
    guard let path else {
        try data.withUnsafeBytes { try Standard.output($0) }
        return
    }
    do {
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
    }
}
