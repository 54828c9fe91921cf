import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// `meridian runs stats|compare|routes|segments|records --history` run as the real binary on a store filled through
/// the tracker: output, JSON, and exit code 2 with a clear message for bad input (nothing stored).
@Suite("Progress commands of the meridian binary")
struct ProgressCommandsTests {
    struct Setup {
        let fixture: HistoryFixture
        let config: URL

        /// Runs `meridian runs ARGUMENTS --db … --config …`; the exit status and everything it printed.
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = try ManagedProcess(
                MeridianBinary.path,
                ["runs"] + arguments + ["--db", fixture.store.path, "--config", config.path],
                currentDirectory: TestData.repositoryRoot)
            process.waitUntilExit()
            return (process.exitStatus ?? -1, process.output())
        }

        func json(_ arguments: [String]) throws -> [String: Any] {
            let (status, output) = try run(arguments + ["--json"])
            #expect(status == 0, "\(arguments): \(output)")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        }
    }

    static func withSetup(_ body: (Setup) throws -> Void) throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        for (index, speed) in [3.0, 3.6, 3.3].enumerated() {
            try fixture.insert(Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(130 + index)))
        }
        let config = fixture.temporary.directory.appendingPathComponent("meridian.yaml")
        try Data("time_zone: Europe/Berlin\nconsumers:\n  - type: run-tracker\n".utf8).write(to: config)
        try body(Setup(fixture: fixture, config: config))
    }

    @Test("runs stats: text and JSON by week in the configured time zone; an unknown --by is exit 2")
    func stats() throws {
        try Self.withSetup { setup in
            let json = try setup.json(["stats", "--by", "week", "--from", "2024-04-29", "--to", "2024-05-12"])
            #expect(json["time_zone"] as? String == "Europe/Berlin")
            #expect((json["periods"] as? [[String: Any]])?.map { $0["runs"] as? Int } == [3, 0])
            #expect((json["totals"] as? [String: Any])?["runs"] as? Int == 3)
            let text = try setup.run(["stats", "--by", "month", "--from", "2024-05-01", "--to", "2024-05-31"])
            #expect(
                text.status == 0 && text.output.contains("2024-05") && text.output.contains("total")
                    && text.output.contains("trend"))
            for bad in [
                ["--by", "fortnight"], ["--from", "May"], ["--activity", "swim"],
                ["--from", "2024-05-02", "--to", "2024-05-01"]
            ] {
                let answer = try setup.run(["stats"] + bad)
                #expect(answer.status == 2, "\(bad): \(answer.output)")
            }
            #expect(
                try setup.run(["stats", "--by", "fortnight"]).output.contains(
                    "'fortnight' is not a period; use week, month or year"))
            #expect(try setup.run(["list", "--activity", "swim"]).status == 2)
        }
    }

    @Test("runs compare and runs routes: same route with its gap; unknown runs and routes are exit 2")
    func compareAndRoutes() throws {
        try Self.withSetup { setup in
            let json = try setup.json(["compare", "loop-0", "loop-1"])
            #expect(json["same_route"] as? Bool == true && (json["gap"] as? [Any])?.isEmpty == false)
            let text = try setup.run(["compare", "loop-0", "loop-1"])
            #expect(text.status == 0 && text.output.contains("same route: yes") && text.output.contains("splits (km)"))
            let missing = try setup.run(["compare", "loop-0", "nope"])
            #expect(missing.status == 2 && missing.output.contains("no run with id 'nope'"))

            let routes = try setup.json(["routes"])
            let route = try #require((routes["routes"] as? [[String: Any]])?.first)
            #expect(route["run_count"] as? Int == 3)
            let id = try #require(route["id"] as? Int)
            let ranked = try setup.run(["routes", String(id)])
            #expect(ranked.status == 0 && ranked.output.contains("#1") && ranked.output.contains("loop-1"))
            #expect(try setup.run(["routes", "999"]).status == 2)
            let rebuilt = try setup.run(["routes", "--rebuild"])
            #expect(rebuilt.status == 0 && rebuilt.output.contains("regrouped every run into 1 route(s)"))
        }
    }

    @Test("runs segments: bad bounds are exit 2 and store nothing; add, list, efforts, show and delete")
    func segments() throws {
        try Self.withSetup { setup in
            let beyond = try setup.run(["segments", "add", "Hill", "--run", "loop-0", "--from-km", "1", "--to-km", "9"])
            #expect(
                beyond.status == 2 && beyond.output.contains("9.0 km is beyond the end of run 'loop-0'"),
                "\(beyond.output)")
            let short = try setup.run([
                "segments", "add", "Hill", "--run", "loop-0", "--from-km", "1", "--to-km", "1.05"
            ])
            #expect(short.status == 2 && short.output.contains("at least 100 m"), "\(short.output)")
            let unknown = try setup.run(["segments", "add", "Hill", "--run", "ghost", "--from-km", "0", "--to-km", "1"])
            #expect(unknown.status == 2 && unknown.output.contains("no run with id 'ghost'"))
            let mixed = try setup.run([
                "segments", "add", "Hill", "--run", "loop-0", "--from-km", "0", "--to", "48.1,11.5"
            ])
            #expect(mixed.status == 2 && mixed.output.contains("--from-km and --to-km"))
            #expect((try setup.json(["segments", "list"])["segments"] as? [Any])?.isEmpty == true)

            let added = try setup.json([
                "segments", "add", "Hill", "--run", "loop-0", "--from-km", "0.2", "--to-km", "1.2"
            ])
            #expect(added["effort_count"] as? Int == 3)
            let efforts = try setup.run(["segments", "efforts", "Hill"])
            #expect(efforts.status == 0 && efforts.output.contains("#1") && efforts.output.contains("loop-1"))
            let listed = try setup.run(["segments", "list"])
            #expect(listed.output.contains("Hill") && listed.output.contains("3 efforts"))
            #expect(try setup.run(["segments", "show", "Hill"]).status == 0)
            #expect(try setup.run(["segments", "delete", "Hill"]).status == 0)
            let gone = try setup.run(["segments", "show", "Hill"])
            #expect(gone.status == 2 && gone.output.contains("no segment with id or name 'Hill'"))
        }
    }

    @Test("runs records --history prints when each record was set and by how much it improved")
    func recordsHistory() throws {
        try Self.withSetup { setup in
            let text = try setup.run(["records", "--history"])
            #expect(
                text.status == 0 && text.output.contains("progression:")
                    && text.output.contains("1 km (run): 2024-05-01"), "\(text.output)")
            #expect(text.output.contains("(-"), "a later, faster run improved the record")
            #expect(try setup.run(["records", "--activity", "swim"]).status == 2)
        }
    }
}
