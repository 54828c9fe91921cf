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
        let config = try location.loadConfig()
        let store = try location.openStore(config)
        try RunHistorySchema.migrateAll(store)
        return (RunHistory(store: store), config?.units ?? .metric)
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(value), as: UTF8.self))
    }
}

/// `meridian runs list`.
struct RunsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List saved runs, newest first.")
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "Runs per page (1...200).") var limit = 50
    @Option(name: .long, help: "Continue after this cursor (printed at the end of a page).") var cursor: String?
    @Option(name: [.short, .long], help: "Only runs whose name contains this text.") var name: String?
    @Option(name: .long, help: "Only runs started on or after this date (2024-05-01 or an ISO 8601 time).") var from: String?
    @Option(name: .long, help: "Only runs started on or before this date (a bare date includes the whole day).") var to: String?
    @Option(name: .long, help: "Only runs of this activity: run, walk, hike, ride or other.") var activity: String?
    @Flag(name: .long, help: "List deleted runs that can still be restored.") var deleted = false

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let (history, units, zone) = (RunHistory(store: opened), settings.units, settings.timeZone)
            let query: RunListQuery
            do {
                query = RunListQuery(limit: limit, cursor: try cursor.map { text throws(RunHistoryError) in try RunCursor(token: text) }, name: name,
                                     from: try from.map { text throws(RunHistoryError) in try RunListQuery.parseBound(text, field: "--from", isUpperBound: false, timeZone: zone) },
                                     to: try to.map { text throws(RunHistoryError) in try RunListQuery.parseBound(text, field: "--to", isUpperBound: true, timeZone: zone) },
                                     activity: try activity.map { text throws(RunHistoryError) in try RunFilter.parseActivity(text, field: "--activity") },
                                     deleted: deleted)
            } catch {
                throw CommandFailure("\(error)", code: 2)
            }
            let page = try await history.list(query)
            if store.json { return try store.printJSON(page) }
            if page.runs.isEmpty { print(deleted ? "No deleted runs." : "No runs.") }
            for item in page.runs {
                var line = RunText.line(item.run, units: units)
                if let purge = item.purgeAt { line += "  (purged \(ISO8601.string(from: purge).prefix(10)))" }
                print(line)
            }
            if let next = page.nextCursor { print("more: meridian runs list --cursor \(next)") }
        }
    }
}

/// `meridian runs show ID`.
struct RunsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a run with splits, records and data quality.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: .long, help: "Most points in the simplified route (JSON).") var maxPoints = RunAnalysis.defaultMaxPoints

    func run() async throws {
        try await reportingFailures {
            let (history, units) = try store.open()
            let detail = try await history.detail(id: id, maxPoints: max(2, maxPoints))
            if store.json { return try store.printJSON(detail) }
            let run = detail.run
            print(RunText.line(run, units: units))
            if !run.notes.isEmpty { print("notes: \(run.notes)") }
            print("moving \(TimeFormat.duration(seconds: run.movingTime)), ascent \(Int(run.ascent.rounded())) m, descent \(Int(run.descent.rounded())) m")
            let table = detail.analysis.splits.first { $0.unit == (units == .metric ? "km" : "mile") }
            for split in table?.splits ?? [] {
                var flag = ""
                if split.index == table?.fastest { flag = "  fastest" }
                if split.index == table?.slowest { flag = "  slowest" }
                print("  \(RunText.pad("\(split.index)\(split.partial ? "*" : "")", 4)) \(RunText.pad(DistanceFormat.string(metres: split.distance, units: units), 8)) \(RunText.pad(TimeFormat.duration(seconds: split.elapsedTime), 8)) \(TimeFormat.pace(secondsPerKilometre: split.pace, units: units))\(flag)")
            }
            let route = detail.analysis.route
            print("route: straight line \(DistanceFormat.string(metres: route.straightLine, units: units)), " +
                  (route.efficiency.map { "efficiency \(NumberText.fixed($0, decimals: 2))" } ?? "loop"))
            let quality = detail.analysis.quality
            print("data: \(quality.received) points, \(quality.rejected) rejected, \(quality.gaps.count) gaps (\(TimeFormat.duration(seconds: quality.gapTime))), accuracy p50 \(quality.accuracyP50.map { NumberText.fixed($0, decimals: 1) } ?? "--") m")
            for record in detail.newRecords { print("new record: \(RunText.record(record, units: units))") }
        }
    }
}

/// `meridian runs edit ID --name … --notes …`.
struct RunsEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a run's name or notes (every change is logged).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: .long, help: "New name.") var name: String?
    @Option(name: .long, help: "New notes.") var notes: String?

    func run() async throws {
        try await reportingFailures {
            let (history, units) = try store.open()
            let run: RunSummary
            do {
                run = try await history.edit(id: id, RunEdit(name: name, notes: notes))
            } catch let error as RunHistoryError {
                throw CommandFailure(error.description, code: 2)
            }
            if store.json { return try store.printJSON(run) }
            print(RunText.line(run, units: units))
        }
    }
}

/// `meridian runs delete ID…`.
struct RunsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete runs (restorable for 30 days).")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run ids.") var ids: [String]

    func run() async throws {
        try await reportingFailures {
            let (history, _) = try store.open()
            let receipt = try await history.delete(ids: ids)
            if store.json { return try store.printJSON(receipt) }
            print("deleted \(receipt.deleted.count) run(s); restore with `meridian runs restore ID` until \(ISO8601.string(from: receipt.purgeAt).prefix(10))")
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
            let (history, units) = try store.open()
            let runs = try await history.restore(ids: ids)
            if store.json { return try store.printJSON(runs) }
            for run in runs { print("restored: \(RunText.line(run, units: units))") }
        }
    }
}

/// `meridian runs records`.
struct RunsRecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "records", abstract: "Personal records and their history.")
    @OptionGroup var store: RunsStoreOptions
    @Option(name: .long, help: "Only this record: 1k, mile, 5k, 10k, 20k, half_marathon, 40k, marathon, 100k, longest.") var distance: String?
    @Option(name: .long, help: "Only this activity's records: run, ride or hike.") var activity: String?
    @Flag(name: .long, help: "Also print when each record was set and by how much it improved, and the record history.") var history = false
    @Flag(name: .long, help: "Recompute every run's best efforts first.") var rebuild = false

    func run() async throws {
        try await reportingFailures {
            let (runs, units) = try store.open()
            var only: RecordDistance?
            if let distance {
                guard let value = RecordDistance(rawValue: distance) else {
                    throw CommandFailure("--distance must be one of \(RecordDistance.allCases.map(\.rawValue).joined(separator: ", ")), got '\(distance)'", code: 2)
                }
                only = value
            }
            let kind: Activity?
            do throws(RunHistoryError) {
                kind = try activity.map { text throws(RunHistoryError) in try RunFilter.parseActivity(text, field: "--activity") }
            } catch {
                throw CommandFailure(error.description, code: 2)
            }
            if rebuild { try await runs.rebuildRecords() }
            let report = try await runs.records(distance: only, activity: kind)
            if store.json { return try store.printJSON(report) }
            if report.records.isEmpty { print("No records yet (records come from saved runs, rides and hikes).") }
            for record in report.records { print(RunText.record(record, units: units)) }
            if history {
                print("progression:")
                for progression in report.progression { print(RunText.progression(progression, units: units)) }
                print("history:")
                for record in report.history { print("  " + RunText.record(record, units: units)) }
            }
        }
    }
}

/// `meridian runs export ID --format gpx|tcx|geojson [-o FILE]`.
struct RunsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export a run as GPX 1.1, TCX v2 or GeoJSON.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: .long, help: "gpx, tcx or geojson.") var format = "gpx"
    @Option(name: .long, help: "TCX laps: km (one per kilometre) or single.") var laps = "km"
    @Option(name: [.short, .long], help: "Write to this file (default: standard output).") var output: String?

    func run() async throws {
        try await reportingFailures {
            guard let format = ExportFormat(rawValue: format) else {
                throw CommandFailure("--format must be gpx, tcx or geojson, got '\(self.format)'", code: 2)
            }
            guard let laps = TCXExport.Laps(rawValue: laps) else {
                throw CommandFailure("--laps must be km or single, got '\(self.laps)'", code: 2)
            }
            let (history, _) = try store.open()
            let (run, points) = try await history.track(id: id)
            let text = format == .tcx ? TCXExport.document(run: run, points: points, laps: laps) : format.document(run: run, points: points)
            try write(text, to: output)
        }
    }
}

/// `meridian runs render ID -o FILE.svg`.
struct RunsRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Draw a run's route and profile as SVG.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "Run id.") var id: String
    @Option(name: [.short, .long], help: "SVG file to write (default: standard output).") var output: String?
    @Option(name: .long, help: "Picture width in pixels (320...4000).") var width = RouteRenderer.defaultWidth

    func run() async throws {
        try await reportingFailures {
            let (history, units) = try store.open()
            let (run, points) = try await history.track(id: id)
            try write(RouteRenderer(units: units, width: min(max(width, 320), 4000)).svg(run: run, points: points), to: output)
        }
    }
}

/// Writes `text` to `path`, or to standard output.
private func write(_ text: String, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
        throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
    }
}
