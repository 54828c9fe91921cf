import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MeridianCore
import MeridianStore
import ReplayProvider
import RunTracker

/// Options shared by the commands that talk to the running service.
struct LiveServerOptions: ParsableArguments {
    @Option(name: .long, help: "Base URL of the running service.")
    var server: String = "http://127.0.0.1:8080"

    @Flag(name: .long, help: "Print the JSON document instead of a summary.")
    var json = false
}

/// `meridian runs start`.
struct RunsStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Start tracking a run on the running service.")

    @OptionGroup var server: LiveServerOptions
    @Option(name: .long, help: "Run name (default: the activity and the start time).")
    var name: String?
    @Option(name: .long, help: "run, walk, hike, ride or other.")
    var activity: String = "run"

    func run() async throws {
        try await reportingFailures {
            var body: [String: String] = ["activity": activity]
            if let name { body["name"] = name }
            let data = try await LiveRunsClient(base: server.server).send("POST", "/v1/runs", body: body)
            try LiveRunsClient.printStatus(data, json: server.json)
        }
    }
}

/// Options of the commands that act on one run: the service and the run id.
struct RunTargetOptions: ParsableArguments {
    @OptionGroup var server: LiveServerOptions
    @Option(name: .long, help: "Run id (default: the active run).")
    var id: String?

    /// Sends `POST /v1/runs/{id}/{action}` for the given run, or the active one, and returns the answer.
    func post(_ action: String) async throws -> Data {
        let client = LiveRunsClient(base: server.server)
        return try await client.send("POST", "/v1/runs/\(try await client.runID(id))/\(action)")
    }
}

/// `meridian runs pause`.
struct RunsPauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the active run.")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunsClient.printStatus(try await target.post("pause"), json: target.server.json)
        }
    }
}

/// `meridian runs resume`.
struct RunsResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the paused run (or a draft, by id).")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunsClient.printStatus(try await target.post("resume"), json: target.server.json)
        }
    }
}

/// `meridian runs stop`.
struct RunsStopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the active run and save it.")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            let data = try await target.post("stop")
            if target.server.json { return LiveRunsClient.printRaw(data) }
            let result = try LiveRunsClient.decode(StopReply.self, data)
            print(RunSummaryText.lines(result.run).joined(separator: "\n"))
            print(result.message)
        }
    }

    struct StopReply: Decodable {
        var run: RunSummary
        var saved: Bool
        var message: String
    }
}

/// `meridian runs status`.
struct RunsStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the active run's live metrics.")
    @OptionGroup var server: LiveServerOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunsClient.printStatus(try await LiveRunsClient(base: server.server).send("GET", "/v1/runs/active"),
                                           json: server.json)
        }
    }
}

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
                print(RunSummaryText.lines(summary, units: units).joined(separator: "\n"))
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

/// A run object as a few lines of text.
enum RunSummaryText {
    static func lines(_ run: RunSummary, units: UnitSystem = .metric) -> [String] {
        [
            "\(run.name) (\(run.activity.rawValue), \(run.state.rawValue)) id \(run.id)",
            "distance \(DistanceFormat.string(metres: run.distance, units: units))  timer \(TimeFormat.duration(seconds: run.timerTime))  "
                + "moving \(TimeFormat.duration(seconds: run.movingTime))  elapsed \(TimeFormat.duration(seconds: run.elapsedTime))",
            "avg pace \(TimeFormat.pace(secondsPerKilometre: run.averagePace ?? .infinity, units: units))  "
                + "max speed \(TimeFormat.speed(metresPerSecond: run.maxSpeed, units: units))  "
                + "ascent \(ElevationText.string(metres: run.ascent, units: units))  descent \(ElevationText.string(metres: run.descent, units: units))",
            "points \(run.pointCount) (\(run.rejectedPointCount) not on the route)  segments \(run.segmentCount)",
        ]
    }
}

/// A small HTTP client for the live run routes (bearer token from `MERIDIAN_TOKEN`).
struct LiveRunsClient {
    var base: String

    /// The given id, or the active run's.
    func runID(_ id: String?) async throws -> String {
        if let id { return id }
        let status = try Self.decode(StatusReply.self, try await send("GET", "/v1/runs/active"))
        return status.run.id
    }

    func send(_ method: String, _ path: String, body: [String: String]? = nil) async throws -> Data {
        guard let url = URL(string: base.hasSuffix("/") ? String(base.dropLast()) + path : base + path),
              url.scheme == "http" || url.scheme == "https" else {
            throw CommandFailure("--server '\(base)' is not an http(s) URL such as http://127.0.0.1:8080", code: 2)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 15
        if let token = ProcessInfo.processInfo.environment["MERIDIAN_TOKEN"], !token.isEmpty {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await Self.load(request)
        } catch {
            throw CommandFailure("cannot reach the Meridian service at \(base): \(error.localizedDescription); is `meridian serve` running? (set --server)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            if let error = try? MeridianJSON.makeDecoder().decode(ErrorReply.self, from: data) {
                throw CommandFailure(error.error.message)
            }
            throw CommandFailure("the service answered \(method) \(path) with HTTP \(status)")
        }
        return data
    }

    private static func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                guard let response else { return continuation.resume(throwing: URLError(.badServerResponse)) }
                continuation.resume(returning: (data ?? Data(), response))
            }.resume()
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try MeridianJSON.makeDecoder().decode(type, from: data)
        } catch {
            throw CommandFailure("the service's answer was not understood (\(error)); are the CLI and the service the same version?")
        }
    }

    static func printRaw(_ data: Data) {
        print(String(decoding: data, as: UTF8.self))
    }

    /// Prints a live status document: raw JSON, or its texts.
    static func printStatus(_ data: Data, json: Bool) throws {
        if json { return printRaw(data) }
        let status = try decode(StatusReply.self, data)
        let text = status.text
        print("\(status.run.name) (\(status.run.activity.rawValue)) id \(status.run.id): \(status.message)")
        print("distance \(text.distance)  timer \(text.timer)  moving \(text.moving)  elapsed \(text.elapsed)")
        print("pace \(text.pace)  avg \(text.averagePace)  speed \(text.speed)  max \(text.maxSpeed)")
        print("ascent \(text.ascent)  descent \(text.descent)  split \(text.split)")
        print("signal \(status.signalQuality ?? "none")  pattern \(status.movementPattern)  battery \(status.power.state)")
    }

    struct StatusReply: Decodable {
        var run: RunSummary
        var message: String
        var signalQuality: String?
        var movementPattern: String
        var power: Power
        var text: Texts

        struct Power: Decodable { var state: String }
        struct Texts: Decodable {
            var distance, elapsed, timer, moving, pace, averagePace, speed, maxSpeed, ascent, descent, split: String
        }
    }

    struct ErrorReply: Decodable {
        struct Detail: Decodable { var code: String; var message: String }
        var error: Detail
    }
}
