import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs lap`: the lap button of the active run.
struct RunsLapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lap",
        abstract: "Close the active run's lap and start the next (the lap button).",
        discussion: "The lap is stored at once with trigger manual; `meridian runs show ID` lists the laps.")
    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await reportingFailures {
            let data = try await server.client().send(
                "POST", "/v1/runs/active/lap", explaining: ServiceClient.noActiveRun)
            if server.json { return LiveRunText.printRaw(data) }
            let reply = try ServiceClient.decode(Reply.self, data)
            let config = try ConfigLookup.load(explicit: server.config)
            if let lap = reply.laps.last {
                print(lap.sentence(activity: reply.run.activity, units: config?.units ?? .metric))
            }
            try LiveRunText.printStatus(data, json: false)
        }
    }

    struct Reply: Decodable {
        var run: RunSummary
        var laps: [RunLap]
    }
}

/// Laps as a table of text: `runs show`.
enum LapText {
    /// The header of `rows`.
    static func header(activity: Activity) -> String {
        "  \(RunText.pad("lap", 4)) \(RunText.pad("distance", 9)) \(RunText.pad("time", 8)) "
            + "\(RunText.pad(PaceOrSpeed.label(activity), 10)) \(RunText.pad("heart rate", 11)) trigger"
    }

    /// One lap in a table under `header`.
    static func row(_ lap: RunLap, activity: Activity, units: UnitSystem) -> String {
        let figures = lap.texts(activity: activity, units: units)
        return
            "  \(RunText.pad("\(lap.index)", 4)) \(RunText.pad(figures.distance, 9)) \(RunText.pad(figures.time, 8)) "
            + "\(RunText.pad(figures.pace, 10)) \(RunText.pad(figures.heartRate, 11)) \(lap.triggerText)"
    }
}
