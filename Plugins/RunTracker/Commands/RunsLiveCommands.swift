import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs start`.
struct RunsStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start tracking a run on the running service.")

    @OptionGroup var server: ServerOptions
    @Option(name: .long, help: "Run name (default: the activity and the start time).")
    var name: String?
    @Option(name: .long, help: "run, walk, hike, ride or other.")
    var activity: String = "run"

    func run() async throws {
        try await reportingFailures {
            var body: [String: String] = ["activity": activity]
            if let name { body["name"] = name }
            let data = try await server.client().send("POST", "/v1/runs", body: body)
            try LiveRunText.printStatus(data, json: server.json)
        }
    }
}

/// Options of the commands that act on one run: the service and the run id.
struct RunTargetOptions: ParsableArguments {
    @OptionGroup var server: ServerOptions
    @Option(name: .long, help: "Run id (default: the active run).")
    var id: String?

    /// Sends `POST /v1/runs/{id}/{action}` for the given run, or the active one; returns the run's id and the answer.
    /// `explaining` maps the service's error codes to messages for that id (see `ServiceClient.send`).
    func post(_ action: String, explaining: (String) -> [String: String] = { _ in [:] }) async throws -> (
        id: String, answer: Data
    ) {
        let client = try server.client()
        let id = try await client.runID(id, for: action)
        return (
            id,
            try await client.send(
                "POST", "/v1/runs/\(PercentEncoding.pathSegment(id))/\(action)", explaining: explaining(id))
        )
    }
}

/// `meridian runs pause`.
struct RunsPauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the active run.")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunText.printStatus(try await target.post("pause").answer, json: target.server.json)
        }
    }
}

/// `meridian runs resume`.
struct RunsResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "Resume the paused run (or the run just stopped too short to save, by id).")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            let answer = try await target.post("resume") { id in
                [
                    "run_not_resumable":
                        "run \(id) is an older draft: only the run just stopped can be resumed, within "
                        + "\(Int(LiveRunController.draftResumeWindow / 60)) minutes. Discard it with `meridian runs discard --id \(id)`, "
                        + "or start a new run with `meridian runs start`"
                ]
            }.answer
            try LiveRunText.printStatus(answer, json: target.server.json)
        }
    }
}

/// `meridian runs discard`.
struct RunsDiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Discard a draft (a stopped run too short to save) on the running service.",
        discussion:
            "List drafts with `meridian runs list --drafts`; saved runs are deleted with `meridian runs delete ID`."
    )
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            let id = try await target.post("discard") { id in
                [
                    "run_not_draft":
                        "run \(id) is not a draft; only a stopped run too short to save can be discarded (delete a saved run with `meridian runs delete \(id)`)"
                ]
            }.id
            print(target.server.json ? try MeridianJSON.string(["discarded": id]) : "discarded draft \(id)")
        }
    }
}

/// `meridian runs stop`.
struct RunsStopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the active run and save it.")
    @OptionGroup var target: RunTargetOptions

    func run() async throws {
        try await reportingFailures {
            let data = try await target.post("stop").answer
            if target.server.json { return LiveRunText.printRaw(data) }
            let result = try ServiceClient.decode(StopReply.self, data)
            let config = try ConfigLookup.load(explicit: target.server.config)
            let style = RunTextStyle(units: config?.units ?? .metric, timeZone: config?.timeZone ?? .current)
            print(RunText.summary(result.run, style: style).joined(separator: "\n"))
            print(result.message)
            if let gear = result.gear { print("gear: \(gear.text(units: style.units))") }
            if !result.saved {
                print(
                    "continue it: meridian runs resume --id \(result.run.id); discard it: meridian runs discard --id \(result.run.id)"
                )
            }
        }
    }

    struct StopReply: Decodable {
        var run: RunSummary
        var saved: Bool
        var message: String
        var gear: RunGear?
    }
}

/// `meridian runs status`.
struct RunsStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the active run's live metrics.")
    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await reportingFailures {
            try LiveRunText.printStatus(
                try await server.client().send("GET", "/v1/runs/active", explaining: ServiceClient.noActiveRun),
                json: server.json)
        }
    }
}

extension ServiceClient {
    /// The given id, or the active run's for `action` (saying in the command line's words when there is none).
    func runID(_ id: String?, for action: String) async throws -> String {
        if let id { return id }
        var explanation = Self.noActiveRun
        switch action {
        case "resume":
            explanation["no_active_run"] =
                "no run is being tracked or paused; continue the run just stopped too short to save, "
                + "within \(Int(LiveRunController.draftResumeWindow / 60)) minutes, with `meridian runs resume --id ID` "
                + "(`meridian runs list --drafts` lists drafts), or start a run with `meridian runs start`"
        case "discard":
            explanation["no_active_run"] =
                "give the draft to discard with --id ID (list drafts with `meridian runs list --drafts`)"
        default:
            break
        }
        let status = try Self.decode(
            LiveRunText.StatusReply.self, try await send("GET", "/v1/runs/active", explaining: explanation))
        return status.run.id
    }

    /// The service's `no_active_run` in the command line's words.
    static let noActiveRun = ["no_active_run": "no run is being tracked; start one with `meridian runs start`"]
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
        print("ascent \(text.ascent)  descent \(text.descent)  split \(text.split)  lap \(text.lap)")
        print(
            "signal \(status.signalQuality ?? "none")  pattern \(status.movementPattern)  battery \(status.power.state)"
        )
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
            var distance, elapsed, timer, moving, pace, averagePace, speed, maxSpeed, ascent, descent, split,
                lap: String
        }
    }
}
