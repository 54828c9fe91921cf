import ActivityFiles
import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs import PATH...`: tracks activity files at full speed and stores the runs; folders are walked
/// recursively (an `activities/` folder of a Strava or Garmin export).
struct RunsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import activity files (FIT, TCX, GPX, NMEA, gpsd JSON, each optionally .gz) and folders of them as runs.",
        discussion: """
            Every activity in a file becomes a run (a FIT file with several sessions gives several). The format is \
            detected from the bytes. A run with the same start time (±2 s), activity and distance (±1 %) as a stored \
            run is skipped as a duplicate. A file that cannot be read is reported and the others still import; the \
            exit code is then 1.
            """
    )

    @Argument(help: "Activity files or folders (read recursively).")
    var paths: [String]
    @Option(
        name: .long,
        help: "run, walk, hike, ride or other (default: the file's own sport, else the one its speeds show).")
    var activity: String?
    @Option(name: .long, help: "Run name (default: the name in the file, else the file name).")
    var name: String?
    @Flag(name: .long, help: "Import runs that match a stored run too.")
    var allowDuplicates = false
    @Flag(
        name: .long,
        help:
            "Import what a damaged FIT file (cut short, CRC mismatch, garbage at the end) holds up to its last complete message; the run is marked salvaged."
    )
    var salvage = false
    @OptionGroup var location: StoreLocationOptions
    @Flag(name: .long, help: "Print {\"imported\": [run…], \"duplicates\": […], \"failed\": […]} as JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let chosenActivity = try activity.map { text throws(CommandFailure) in
                guard let activity = Activity(rawValue: text) else {
                    throw CommandFailure(
                        "--activity '\(text)' is not known; use one of \(Activity.allCases.map(\.rawValue).joined(separator: ", "))",
                        code: 2)
                }
                return activity
            }
            var report = ImportReport()
            let files = ImportPaths.files(in: paths) { report.failed.append(.init(file: $0, error: $1)) }
            // The configuration gives the database, the units and the run-tracker options (defaults without one).
            let settings = try location.loadConfig()
            let units = settings?.units ?? .metric
            let options = try Self.trackerOptions(settings)
            let importer = RunImporter(
                runStore: try RunStore(store: location.openStore(settings), matcher: options.matcher),
                settings: options.settings(units: units))
            let request = RunImporter.Request(
                name: name, activity: chosenActivity, allowDuplicates: allowDuplicates, salvage: salvage)
            let progress = ProgressBar(label: "importing", large: files.count > 1)
            for (index, file) in files.enumerated() {
                progress?.update(
                    fraction: Double(index) / Double(files.count),
                    detail:
                        "\(index) of \(Counted.string(files.count, "file")), \(Counted.string(report.imported.count, "run"))"
                )
                do {
                    report.add(
                        try importer.importFile(contentsOf: URL(fileURLWithPath: file), request: request), file: file)
                } catch let error as ActivityFileError {
                    let salvageable = error.readable != nil
                    report.failed.append(
                        .init(
                            file: file, error: error.description + (salvageable ? " (import it with --salvage)" : ""),
                            salvageable: salvageable))
                } catch {
                    report.failed.append(.init(file: file, error: "\(file): \(error.localizedDescription)"))
                }
            }
            progress?.finish()
            // Once every file is in: a run's gear distance counts the runs that started before it.
            let gearBook = GearBook(store: importer.runStore.store)
            for run in report.imported {
                report.gear.append(RunGearReply(runId: run.id, gear: try await gearBook.ofRun(run.id)))
            }
            if json {
                print(try MeridianJSON.string(report))
            } else {
                report.print(
                    style: RunTextStyle(units: units, timeZone: settings?.timeZone ?? .current),
                    detailed: files.count == 1)
            }
            if !report.failed.isEmpty { throw ExitCode(1) }
        }
    }

    /// The run-tracker entry's options from the configuration, or the defaults.
    static func trackerOptions(_ settings: MeridianConfig?) throws -> RunTrackerOptions {
        guard let spec = settings?.consumers.first(where: { $0.type == "run-tracker" }) else {
            return RunTrackerOptions()
        }
        do {
            return try RunTrackerOptions.decode(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }
}
