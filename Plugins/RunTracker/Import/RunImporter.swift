import ActivityFiles
import Foundation
import MeridianCore

/// Imports activity files into the run store, for `meridian runs import` and `POST /v1/runs/import`: every
/// activity in a file becomes a run (a FIT file with several sessions gives several), tracked by Meridian's own
/// engine, with the device's figures kept beside. A run that matches a stored one is a duplicate and skipped, and so
/// is an activity with nothing to save (no time, or neither a position nor a sensor reading); a short one is saved.
public struct RunImporter: Sendable {
    public let runStore: RunStore
    public let settings: TrackerSettings

    /// Runs whose start times are this close (seconds)…
    public static let duplicateStartWindow = 2.0
    /// …with the same activity and distances this close (a fraction of the longer) are the same run.
    public static let duplicateDistanceFraction = 0.01

    public init(runStore: RunStore, settings: TrackerSettings) {
        self.runStore = runStore
        self.settings = settings
    }

    /// What became of one activity of a file.
    public enum Outcome: Sendable {
        /// Stored as a new run.
        case imported(ImportedRun)
        /// Skipped: the same run is already stored (`existing`).
        case duplicate(RunSummary, existing: RunSummary)
        /// Skipped: the activity holds nothing to save, for `reason`.
        case skipped(RunSummary, reason: String)
    }

    /// How the activity of an imported run was inferred (its file named none): JSON `{"run_id", "inference": {…}}`.
    public struct Inferred: Encodable, Sendable {
        public var runID: String
        public var inference: ActivityInference

        /// The inference of `run`, or `nil` when the caller or the file gave its activity.
        public init?(_ run: ImportedRun) {
            guard let inference = run.inference else { return nil }
            runID = run.summary.id
            self.inference = inference
        }
    }

    /// What the caller may set for every run of a file.
    public struct Request: Sendable {
        /// The run name (default: the file's own name for the activity, else the file name).
        public var name: String?
        /// The activity (default: the file's sport, else the one its speeds show).
        public var activity: Activity?
        /// Store runs that match a stored run too.
        public var allowDuplicates: Bool

        public init(name: String? = nil, activity: Activity? = nil, allowDuplicates: Bool = false) {
            self.name = name
            self.activity = activity
            self.allowDuplicates = allowDuplicates
        }
    }

    /// Reads `data` (FIT, TCX, GPX, NMEA or gpsd JSON, any of them gzip-compressed; named `file` in messages),
    /// tracks every activity in it and stores the runs in one transaction: all of the file, or nothing.
    /// A damaged file throws `ActivityFileError` naming the file and the byte offset or line; so does reading
    /// stopped because `isCancelled` said so.
    public func importFile(_ data: Data, file: String, request: Request = Request(),
                           isCancelled: () -> Bool = { false }) throws -> [Outcome] {
        let recordings = try ActivityFileReader.read(data, file: file, isCancelled: isCancelled).filter { !$0.samples.isEmpty }
        guard !recordings.isEmpty else {
            throw ActivityFileError(file: file, message: "the file holds no recorded samples; nothing to import")
        }
        let fallbackName = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let prepared = try recordings.enumerated().compactMap { index, recording in
            var name = request.name ?? recording.name ?? fallbackName
            if recordings.count > 1 { name += " (\(index + 1) of \(recordings.count))" }
            if let problem = RunEdit.nameLimit.problem(name) {
                let whose = request.name != nil ? "the run name given" : recording.name != nil ? "the activity's name in the file" : "the file name"
                throw ActivityFileError(file: file, message: "\(whose) \(problem); give a shorter one (--name, or ?name= over HTTP)")
            }
            return try RunStore.prepareImport(recording, name: name, activity: request.activity, settings: settings)
        }
        return try runStore.store.releasingSpaceOnFailure {
            try runStore.store(prepared, duplicates: request.allowDuplicates ? nil : Self.duplicateRule)
        }
    }

    /// The rule `importFile` skips duplicates by.
    static let duplicateRule = RunStore.DuplicateRule(startWindow: duplicateStartWindow,
                                                      distanceFraction: duplicateDistanceFraction)
}
