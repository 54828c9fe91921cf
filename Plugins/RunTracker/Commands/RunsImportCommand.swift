import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import ReplayProvider

/// `meridian runs import FILE`: tracks a recorded file at full speed and stores the run.
struct RunsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a recorded track (GPX, NMEA or gpsd JSON) through the run tracker and store it."
    )

    @Argument(help: "The track file.")
    var file: String
    @Option(name: .long, help: "run, walk, hike, ride or other.")
    var activity: String = "run"
    @Option(name: .long, help: "Run name (default: the file name).")
    var name: String?
    @OptionGroup var location: StoreLocationOptions
    @Flag(name: .long, help: "Print the run object as JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            guard let activity = Activity(rawValue: activity) else {
                throw CommandFailure("--activity '\(self.activity)' is not known; use one of \(Activity.allCases.map(\.rawValue).joined(separator: ", "))", code: 2)
            }
            // The configuration gives the database, the units and the run-tracker options (defaults without one).
            let settings = try location.loadConfig()
            let units = settings?.units ?? .metric
            let trackerOptions = try Self.trackerOptions(settings)
            var problems = 0
            let fixes = try TrackFileReader.read(url: URL(fileURLWithPath: file), providerID: "import") { error in
                problems += 1
                if problems <= 5 { Standard.error("meridian: \(error)") }
            }
            let runName = name ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let runStore = try RunStore(store: location.openStore(settings))
            guard let imported = try runStore.importRun(fixes, name: runName, activity: activity,
                                                        settings: trackerOptions.settings(units: units)) else {
                throw CommandFailure("\(file) holds no fixes; nothing to import")
            }
            let summary = imported.summary
            if json {
                print(try MeridianJSON.string(summary))
            } else {
                print(RunText.summary(summary, units: units).joined(separator: "\n"))
                if summary.state == .draft {
                    print(LiveRunController.stopResult(summary).message)
                }
            }
        }
    }

    /// The run-tracker entry's options from the configuration, or the defaults.
    static func trackerOptions(_ settings: MeridianConfig?) throws -> RunTrackerOptions {
        guard let spec = settings?.consumers.first(where: { $0.type == "run-tracker" }) else { return RunTrackerOptions() }
        do {
            return try RunTrackerOptions.decode(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }
}
