import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs start`.
struct RunsStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Start tracking a run on the running service.")

    @OptionGroup var server: ServerOptions
    @Option(name: .long, help: "Run name (default: the activity and the start time).")
    var name: String?
    @Option(name: .long, help: "run, walk, hike, ride or other.")
    var activity: String = "run"

    func run() async throws {
        try await reportingFailures {
            var body: [String: String] = ["activity": activity]
            if let name { body["name"] = name }
            let data = try await ServiceClient(base: server.server).send("POST", "/v1/runs", body: body)
            try LiveRunText.printStatus(data, json: server.json)
        }
    }
}

/// Options of the commands that act on one run: the service and the run id.
struct RunTargetOptions: ParsableArguments {
    @OptionGroup var server: ServerOptions
    @Option(name: .long, help: "Run id (default: the active run).")
    var id: String?

    /// Sends `POST /v1/runs/{id}/{action}` for the given run, or the active one, and returns the answer.
    func post(_ action: String) async throws -> Data {
        let client = ServiceClient(base: server.server)
        return try await client.send("POST", "/v1/runs/\(try await client.runID(id))/\(action)")
    }
}

/// `meridian runs pause`.
struct RunsPauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the active run.")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunText.printStatus(try await target.post("pause"), json: target.server.json)
        }
    }
}

/// `meridian runs resume`.
struct RunsResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the paused run (or a draft, by id).")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunText.printStatus(try await target.post("resume"), json: target.server.json)
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
            if target.server.json { return LiveRunText.printRaw(data) }
            let result = try ServiceClient.decode(StopReply.self, data)
            print(RunText.summary(result.run).joined(separator: "\n"))
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
    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunText.printStatus(try await ServiceClient(base: server.server).send("GET", "/v1/runs/active"),
                                           json: server.json)
        }
    }
}

extension ServiceClient {
    /// The given id, or the active run's.
    func runID(_ id: String?) async throws -> String {
        if let id { return id }
        let status = try Self.decode(LiveRunText.StatusReply.self, try await send("GET", "/v1/runs/active"))
        return status.run.id
    }
}

/// The live status documents of the running service, as text.
enum LiveRunText {
    static func printRaw(_ data: Data) {
        print(String(decoding: data, as: UTF8.self))
    }

    /// Prints a live status document: raw JSON, or its texts.
    static func printStatus(_ data: Data, json: Bool) throws {
        if json { return printRaw(data) }
        let status = try ServiceClient.decode(StatusReply.self, data)
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
}
