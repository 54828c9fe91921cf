import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// `meridian runs lap`, `runs show` (laps and gear) and `meridian gear …` run as the real binary.
@Suite("Lap and gear commands of the meridian binary")
struct LapGearCommandsTests {
    /// Runs the binary; the exit status and everything it printed.
    static func meridian(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try ManagedProcess(MeridianBinary.path, arguments, currentDirectory: TestData.repositoryRoot)
        process.waitUntilExit()
        return (process.exitStatus ?? -1, process.output())
    }

    /// Runs the binary without holding a thread of the test's pool (the in-process server it talks to needs them).
    static func meridianAsync(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = try ManagedProcess(MeridianBinary.path, arguments, currentDirectory: TestData.repositoryRoot)
        try await ManagedProcess.waitUntil(timeout: 60, "meridian \(arguments.joined(separator: " "))") {
            !process.isRunning
        }
        return (process.exitStatus ?? -1, process.output())
    }

    @Test("runs show: the Forerunner 110's laps with pace, heart rate and trigger, and the run's gear past retirement")
    func showAndGear() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let config = fixture.temporary.directory.appendingPathComponent("meridian.yaml")
        try Data("consumers:\n  - type: run-tracker\n".utf8).write(to: config)
        let store = ["--db", fixture.store.path, "--config", config.path]
        let added = try Self.meridian(
            ["gear", "add", "Pegasus 40", "--activity", "run", "--start", "1.5km", "--retire", "6km", "--default"]
                + store)
        #expect(
            added.status == 0 && added.output.contains("added gear 1: Pegasus 40 (shoes for runs)"), "\(added.output)")
        let recording = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__2013-02-06-12-11-14.fit")).first)
        _ = try RunStore(store: fixture.store).importRun(recording, id: "fr110", name: "FR110")

        let shown = try Self.meridian(["runs", "show", "fr110"] + store)
        #expect(shown.status == 0)
        let lines = shown.output.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.contains("lap") && $0.contains("trigger") }, "\(shown.output)")
        let laps = lines[(header + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(laps.count == recording.laps.count)
        #expect(laps.first?.contains("1.0 km") == true && laps.first?.contains("bpm") == true)
        #expect(laps.first?.contains("auto (distance)") == true && laps.last?.contains("lap button") == true)
        // 1.5 km + 4.7 km of the run: this run took the shoes past 6 km.
        #expect(
            shown.output.contains(
                "gear: Pegasus 40 (shoes) · 6.2 km · this run took it past its retirement distance of 6.0 km"),
            "\(shown.output)")

        let list = try Self.meridian(["gear", "list"] + store)
        #expect(list.status == 0 && list.output.contains("Pegasus 40") && list.output.contains("retire it"))
        let json = try Self.meridian(["gear", "list", "--json"] + store)
        let items = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["gear"]
                as? [[String: Any]])
        #expect(items.first?["run_count"] as? Int == 1 && items.first?["past_retirement"] as? Bool == true)

        let unassigned = try Self.meridian(["gear", "assign", "none", "--run", "fr110"] + store)
        #expect(unassigned.status == 0 && unassigned.output.contains("has no gear now"))
        let assigned = try Self.meridian(["gear", "assign", "1", "--run", "fr110"] + store)
        #expect(assigned.status == 0 && assigned.output.contains("this run took it past"), "\(assigned.output)")
        let retired = try Self.meridian(["gear", "retire", "Pegasus 40"] + store)
        #expect(retired.status == 0 && retired.output.contains("retired: Pegasus 40 after 6.2 km"))

        let badDistance = try Self.meridian(["gear", "add", "X", "--activity", "run", "--retire", "far"] + store)
        #expect(badDistance.status == 2 && badDistance.output.contains("--retire 'far' is not a distance"))
        let taken = try Self.meridian(["gear", "add", "Pegasus 40", "--activity", "run"] + store)
        #expect(taken.status == 1 && taken.output.contains("exists already"))
        let noRun = try Self.meridian(["gear", "assign", "1", "--run", "nope"] + store)
        #expect(noRun.status == 2 && noRun.output.contains("no run with id 'nope'"))
    }

    @Test("runs import and runs stop say when the new run took its gear past its retirement distance")
    func importAndStopSayRetirement() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let config = fixture.temporary.directory.appendingPathComponent("meridian.yaml")
        try Data("consumers:\n  - type: run-tracker\n".utf8).write(to: config)
        let store = ["--db", fixture.store.path, "--config", config.path]
        for item in [
            ["Pegasus 40", "--activity", "run", "--start", "1.5km", "--retire", "6km", "--default"],
            ["Trail", "--activity", "walk", "--retire", "4km", "--default"]
        ] {
            let added = try Self.meridian(["gear", "add"] + item + store)
            #expect(added.status == 0, "\(added.output)")
        }
        let fr110 = TestData.url("fit/fitparse__2013-02-06-12-11-14.fit").path
        // Several files: one line for the run that took the shoes past 6 km (1.5 km + its 4.7 km), none for the
        // 2015 Fenix 2 run, which ran on them past it.
        let bulk = try Self.meridian(
            ["runs", "import", fr110, TestData.url("fit/fitparse__activity-small-fenix2-run.fit").path] + store)
        let gearLines = bulk.output.components(separatedBy: "\n").filter { $0.hasPrefix("gear ") }
        #expect(bulk.status == 0 && gearLines.count == 1, "\(bulk.output)")
        #expect(
            gearLines.first
                == "gear      fitparse__2013-02-06-12-11-14: Pegasus 40 (shoes) · 6.2 km · this run took it past its retirement distance of 6.0 km"
        )
        // One file: the run in full, and its gear.
        let said = "gear: Trail (shoes) · 4.7 km · this run took it past its retirement distance of 4.0 km"
        let walk = try Self.meridian(["runs", "import", "--activity", "walk", "--allow-duplicates", fr110] + store)
        #expect(walk.status == 0 && walk.output.contains(said), "\(walk.output)")

        // Stopping a saved run again answers as its stop did, with the gear.
        let id = try #require(
            walk.output.components(separatedBy: " id ").dropFirst().first?.prefix { !$0.isWhitespace })
        let server = try await TrackerServer.start(store: fixture.store)
        do {
            let url = "http://127.0.0.1:\(server.server.port)"
            let stopped = try await Self.meridianAsync(["runs", "stop", "--id", String(id), "--server", url])
            #expect(stopped.status == 0 && stopped.output.contains(said), "\(stopped.output)")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
        // (After the stop: another walk at the same start would count before or after it.)
        let json = try Self.meridian(
            ["runs", "import", "--activity", "walk", "--allow-duplicates", "--json", fr110] + store)
        #expect(json.output.contains("\"passed_retirement\"") && json.output.contains("\"Trail\""), "\(json.output)")
    }

    @Test("runs lap: the lap button from the command line; without a run it says how to start one")
    func lapCommand() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let server = try await TrackerServer.start(store: folder.store)
        do {
            let url = "http://127.0.0.1:\(server.server.port)"
            let none = try await Self.meridianAsync(["runs", "lap", "--server", url])
            #expect(none.status == 1 && none.output.contains("start one with `meridian runs start`"), "\(none.output)")
            #expect(try await server.call("POST", "/v1/runs", #"{"name": "Track"}"#).status == 201)
            let lap = try await Self.meridianAsync(["runs", "lap", "--server", url])
            #expect(lap.status == 0 && lap.output.contains("lap 1: 0 m in 0:0"), "\(lap.output)")
            #expect(lap.output.contains("lap 2: 0 m in 0:0"))  // the status line: the lap in progress
            let json = try await Self.meridianAsync(["runs", "lap", "--server", url, "--json"])
            #expect(json.status == 0 && json.output.contains("\"current_lap\""))
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
