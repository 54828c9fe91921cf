import ActivityFiles
import Foundation
import MeridianCore

/// Imports activity files into the run store, for `meridian runs import` and `POST /v1/runs/import`: every
/// activity in a file becomes a run (a FIT file with several sessions gives several), tracked by Meridian's own
/// engine, with the device's figures kept beside. A run that matches a stored one is a duplicate and skipped, and so
/// is an activity with nothing to save (no time, or neither a position nor a sensor reading); a short one is saved.
package struct RunImporter: Sendable {
    package let runStore: RunStore
    package let settings: TrackerSettings

    /// Runs whose start times are this close (seconds)…
    package static let duplicateStartWindow = 2.0
    /// …with the same activity and distances this close (a fraction of the longer) are the same run.
    package static let duplicateDistanceFraction = 0.01

    package init(runStore: RunStore, settings: TrackerSettings) {
        self.runStore = runStore
        self.settings = settings
    }

    /// What became of one activity of a file.
    package enum Outcome: Sendable {
        /// Stored as a new run.
        case imported(ImportedRun)
        /// Skipped: the same run is already stored (`existing`).
        case duplicate(RunSummary, existing: RunSummary)
        /// Skipped: the activity holds nothing to save, for `reason`.
        case skipped(RunSummary, reason: String)
    }

    /// How the activity of an imported run was inferred (its file named none): JSON `{"run_id", "inference": {…}}`.
    package struct Inferred: Encodable, Sendable {
        package var runID: String
        package var inference: ActivityInference

        /// The inference of `run`, or `nil` when the caller or the file gave its activity.
        package init?(_ run: ImportedRun) {
            guard let inference = run.inference else { return nil }
            runID = run.summary.id
            self.inference = inference
        }
    }

    /// What the caller may set for every run of a file.
    package struct Request: Sendable {
        /// The run name (default: the file's own name for the activity, else the file name without its extensions,
        /// else, with `fileNamed` false, the activity and start time as a live run's).
        package var name: String?
        /// The activity (default: the file's sport, else the one its speeds show).
        package var activity: Activity?
        /// Store runs that match a stored run too.
        package var allowDuplicates: Bool
        /// Keep what a damaged FIT file holds up to its last complete message (the runs are marked salvaged).
        package var salvage: Bool
        /// Whether the `file` given is the file's own name (false for an upload sent without one).
        package var fileNamed: Bool

        package init(
            name: String? = nil, activity: Activity? = nil, allowDuplicates: Bool = false, salvage: Bool = false,
            fileNamed: Bool = true
        ) {
            self.name = name
            self.activity = activity
            self.allowDuplicates = allowDuplicates
            self.salvage = salvage
            self.fileNamed = fileNamed
        }
    }

    /// Reads `data` (FIT, TCX, GPX, NMEA or gpsd JSON, any of them gzip-compressed; named `file` in messages),
    /// tracks every activity in it and stores the runs in one transaction: all of the file, or nothing.
    /// A damaged file throws `ActivityFileError` naming the file and the byte offset or line; so does reading
    /// stopped because `isCancelled` said so, and a file of more than `ActivityFileReader.maximumSamples` samples.
    /// The bytes are let go once read (pass them with `consume`, or as the only copy, for that to free them).
    package func importFile(
        _ data: consuming Data, file: String, request: Request = Request(),
        isCancelled: () -> Bool = { false }
    ) throws -> [Outcome] {
        guard request.salvage else {
            let read = try ActivityFileReader.read(data, file: file, isCancelled: isCancelled)
            _ = consume data
            return try importRecordings(read, file: file, request: request)
        }
        let salvaged = try ActivityFileReader.salvage(data, file: file, isCancelled: isCancelled)
        _ = consume data
        return try importRecordings(
            salvaged.activities, file: file, request: request,
            salvaged: salvaged.damage.map { SalvageMark(byteOffset: $0.byteOffset ?? 0, reason: $0.message) })
    }

    /// Imports the file at `url` as ``importFile(_:file:request:isCancelled:)`` does; a plain GPX or TCX file is
    /// parsed as it is read, never held whole.
    package func importFile(contentsOf url: URL, request: Request = Request()) throws -> [Outcome] {
        guard request.salvage else {
            return try importRecordings(
                ActivityFileReader.read(contentsOf: url), file: url.relativePath, request: request)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ActivityFileError(
                file: url.relativePath,
                message: "cannot read the file (\(error.localizedDescription)); check the path and its permissions")
        }
        return try importFile(data, file: url.relativePath, request: request)
    }

    /// Tracks and stores `read`, the activities of `file`. Each recording's samples are let go once it is
    /// tracked (its track points take their place), so an import holds one copy of the points, not two.
    private func importRecordings(
        _ read: consuming [RecordedActivity], file: String, request: Request,
        salvaged: SalvageMark? = nil
    ) throws -> [Outcome] {
        var recordings = consume read
        recordings.removeAll { $0.samples.isEmpty }
        guard !recordings.isEmpty else {
            throw ActivityFileError(file: file, message: "the file holds no recorded samples; nothing to import")
        }
        let fileName = request.fileNamed ? Self.runName(file: file) : nil
        let count = recordings.count
        var prepared: [PreparedImport] = []
        for index in 0..<count {
            var recording = RecordedActivity(format: recordings[index].format)
            swap(&recording, &recordings[index])
            let numbered = { (name: String) in count > 1 ? "\(name) (\(index + 1) of \(count))" : name }
            let given = request.name ?? recording.name ?? fileName
            if let given, let problem = RunEdit.nameLimit.problem(numbered(given)) {
                let whose =
                    request.name != nil
                    ? "the run name given" : recording.name != nil ? "the activity's name in the file" : "the file name"
                throw ActivityFileError(
                    file: file, message: "\(whose) \(problem); give a shorter one (--name, or ?name= over HTTP)")
            }
            if var run = try RunStore.prepareImport(
                consume recording, name: numbered(given ?? ""), activity: request.activity, settings: settings)
            {
                // Without a name, as a live run: its activity (known once tracked) and start.
                if given == nil {
                    run.summary.name = numbered(run.summary.activity.runName(startedAt: run.summary.startedAt))
                }
                run.summary.salvaged = salvaged
                prepared.append(run)
            }
        }
        return try runStore.store.releasingSpaceOnFailure {
            // Handed over, not shared: the store lets go of each run's points once they are written.
            var batch: [PreparedImport] = []
            swap(&batch, &prepared)
            return try runStore.store(consume batch, duplicates: request.allowDuplicates ? nil : Self.duplicateRule)
        }
    }

    /// The name of a run from `file`, whose activity names none: the file's name without its extensions
    /// (`2024-06-03-07-12.fit.gz` → `2024-06-03-07-12`).
    static func runName(file: String) -> String {
        var url = URL(fileURLWithPath: file)
        if url.pathExtension.lowercased() == "gz" { url.deletePathExtension() }
        return url.deletingPathExtension().lastPathComponent
    }

    /// The rule `importFile` skips duplicates by.
    static let duplicateRule = RunStore.DuplicateRule(
        startWindow: duplicateStartWindow,
        distanceFraction: duplicateDistanceFraction)
}
