import ActivityFiles
import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import Synchronization

/// `POST /v1/runs/import`: an activity file as the request body (FIT, TCX, GPX, NMEA or gpsd JSON, optionally
/// gzip-compressed; the format is detected from the bytes), imported like `meridian runs import`.
enum RunImportRoutes {
    /// The largest file accepted, bytes.
    static let maximumFileSize = 64 << 20

    /// What the route answers: the runs stored, those skipped as duplicates or with nothing to save, and how the
    /// activity of each stored run whose file named none was inferred.
    struct Answer: Encodable, Sendable {
        var imported: [RunSummary] = []
        var duplicates: [Duplicate] = []
        var skipped: [Skipped] = []
        var inferred: [RunImporter.Inferred] = []

        struct Duplicate: Encodable, Sendable {
            var run: RunSummary
            var existingID: String
        }

        struct Skipped: Encodable, Sendable {
            var run: RunSummary
            var reason: String
        }
    }

    static func add(
        to runs: RouterGroup<MeridianRequestContext>, importer: RunImporter, events: EventBus, goals: GoalWatch
    ) {
        runs.post("import") { request, context in
            try request.allowQuery(["activity", "name", "allow_duplicates", "salvage"])
            let activity = try request.query("activity").map { text in
                guard let activity = Activity(rawValue: text) else {
                    throw APIError.badRequest(
                        "activity '\(text)' is not known; use one of \(Activity.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                return activity
            }
            let allowDuplicates =
                try request.query("allow_duplicates").map { text in
                    guard let value = Bool(text) else {
                        throw APIError.badRequest("allow_duplicates must be true or false")
                    }
                    return value
                } ?? false
            let salvage =
                try request.query("salvage").map { text in
                    guard let value = Bool(text) else { throw APIError.badRequest("salvage must be true or false") }
                    return value
                } ?? false
            let body = Body(try await request.collectBody(limit: maximumFileSize, mediaTypes: mediaTypes))
            let name = request.query("name").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            let outcomes: [RunImporter.Outcome]
            // Reading stops when the client goes away or the service is stopping: nobody waits for the answer.
            let cancellation = RequestCancellation()
            do {
                outcomes = try await cancellation.run(for: context) {
                    try importer.importFile(
                        body.take(), file: name ?? "upload",
                        request: .init(
                            name: name, activity: activity, allowDuplicates: allowDuplicates, salvage: salvage,
                            fileNamed: false),
                        isCancelled: { cancellation.isCancelled })
                }
            } catch let error as ActivityFileError {
                if cancellation.isCancelled {
                    context.logger.notice(
                        "runs: import of '\(name ?? "upload")' stopped before it finished (the client went away or the service is stopping); nothing stored"
                    )
                    throw APIError(
                        .serviceUnavailable, code: "import_cancelled",
                        message: """
                            the import stopped before it finished because the service is stopping (or the client went away); \
                            nothing was stored, send the file again
                            """)
                }
                throw APIError.badRequest(
                    error.description + (error.readable != nil ? " (send it again with ?salvage=true)" : ""),
                    code: "invalid_file")
            }
            var answer = Answer()
            for outcome in outcomes {
                switch outcome {
                case .imported(let run):
                    answer.imported.append(run.summary)
                    answer.inferred += RunImporter.Inferred(run).map { [$0] } ?? []
                    RunCompletion.publish(run.records, to: events)
                case .duplicate(let run, let existing):
                    answer.duplicates.append(.init(run: run, existingID: existing.id))
                case .skipped(let run, let reason):
                    answer.skipped.append(.init(run: run, reason: reason))
                }
            }
            await goals.runsSaved(answer.imported.map(\.id))
            return JSONResponse(answer, status: answer.imported.isEmpty ? .ok : .created)
        }
    }

    /// The request body, handed to the import rather than shared with it, so that the import can let go of it once
    /// read (up to 64 MiB that would otherwise stay held while the run is tracked and stored).
    private final class Body: Sendable {
        private let data: Mutex<Data?>

        init(_ data: Data) { self.data = Mutex(data) }

        /// The body; empty for a second caller.
        func take() -> Data { data.withLock { $0.take() } ?? Data() }
    }

    /// The content types accepted for the file (a request without one is read as a file too).
    static let mediaTypes = [
        "application/octet-stream", "application/vnd.ant.fit", "application/gpx+xml",
        "application/vnd.garmin.tcx+xml", "application/xml", "text/xml", "text/plain",
        "application/json", "application/x-ndjson", "application/gzip"
    ]
}
