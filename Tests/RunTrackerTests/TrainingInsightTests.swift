import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Training load stored with the runs, fitness day by day, and the current VDOT: over a real SpatiaLite file, through
/// the `meridian` binary on real device files, and over HTTP.
@Suite("Training insight")
struct TrainingInsightTests {
    /// Real runs with heart rate (FIT and TCX).
    static let heartRateRuns = [
        "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit", "fit/fitparse__2013-02-06-12-11-14.fit",
        "fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx"
    ]

    @Test(
        "without heart rate: rTSS at the threshold estimated from the current VDOT; VDOT is the best of the 6 weeks up to --at"
    )
    func paceLoadAndWindow() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("fast", day: 0, duration: 900, pace: 240))
        try fixture.insert(Fixtures.run("slow", day: 50, duration: 900, pace: 330))
        let (latest, early, none) = try await fixture.store.database.read { db in
            (
                try VdotBook.current(at: nil, in: db),
                try VdotBook.current(at: Fixtures.day0.addingTimeInterval(86_400), in: db),
                try VdotBook.current(at: Fixtures.day0.addingTimeInterval(-86_400), in: db)
            )
        }
        // The fast run is 50 days before the latest: outside its 6 weeks.
        let current = try #require(latest)
        #expect(current.from.runId == "slow")
        let earlier = try #require(early)
        #expect(earlier.from.runId == "fast" && earlier.vdot > current.vdot)
        #expect(none == nil)
        #expect(current.predictions.map(\.distanceM) == [1500, 5000, 10_000, 21_097.5, 42_195])
        let effort = current.from
        #expect(
            abs(current.vdot - (DanielsGilbert.vdot(distance: effort.distanceM, time: effort.elapsedS) ?? 0)) < 1e-9)

        let threshold = try #require(DanielsGilbert.thresholdSpeed(vdot: current.vdot))
        let database = fixture.store.database
        _ = try await TrainingBook.fitness(
            settings: TrainingSettings(), from: nil, to: nil, timeZone: .gmt, now: Date(), in: database)
        let (stored, summaries) = try await database.read { db in
            (
                try TrainingBook.loads(settings: TrainingSettings(), in: db),
                try ["fast", "slow"].map { try RunSummary.fetch(db, id: $0) }
            )
        }
        #expect(stored.map(\.runID) == ["fast", "slow"] && stored.allSatisfy { !$0.changed }, "kept beside the runs")
        let loads = stored.map(\.load)
        for (load, summary) in zip(loads, summaries) {
            let load = try #require(load)
            let run = try #require(summary)
            #expect(load.method == .rtss && load.thresholdSpeed == threshold)
            let intensity = run.distance / run.movingTime / threshold
            #expect(abs(load.load - run.movingTime / 3600 * intensity * intensity * 100) < 1e-9)
        }
        // A configured threshold pace replaces the estimate, and the stored loads follow it.
        let configured = try await TrainingBook.load(
            of: "slow", settings: TrainingSettings(thresholdSpeed: 4), in: database)
        #expect(configured?.thresholdSpeed == 4)
        let again = try await database.read { db in
            try TrainingBook.loads(settings: TrainingSettings(thresholdSpeed: 4), runID: "slow", in: db)
        }
        #expect(again.first?.changed == false && again.first?.load == configured)
    }

    @Test("runs show, runs fitness and runs vdot on real heart-rate runs, in text and JSON; bad dates are exit 2")
    func commands() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let runs = try ProgressRealFileTests.importAll(into: fixture, files: Self.heartRateRuns)
        #expect(runs.count == 3)
        let config = fixture.temporary.directory.appendingPathComponent("meridian.yaml")
        try Data(
            "time_zone: Europe/Berlin\nconsumers:\n  - type: run-tracker\n    max_heart_rate: 185\n    resting_heart_rate: 50\n"
                .utf8
        )
        .write(to: config)
        let setup = ProgressCommandsTests.Setup(fixture: fixture, config: config)

        let fenix = try #require(runs.first)
        let detail = try setup.json(["show", fenix.id])
        let load = try #require(detail["training_load"] as? [String: Any])
        #expect(load["method"] as? String == "trimp")
        #expect((load["load"] as? Double ?? 0) > 10)
        #expect(try setup.run(["show", fenix.id]).output.contains("training load: "))

        let (status, output) = try setup.run(["fitness", "--json"])
        #expect(status == 0, "\(output)")
        let days = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        let latestDay = LocalTime.day(
            try #require(runs.map(\.startedAt).max()), in: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
        #expect(
            days.count == 90 && days.last?["date"] as? String == latestDay, "an old history opens at its latest run")
        let last = try #require(days.last)
        let (ctl, atl, tsb) = (
            last["ctl"] as? Double ?? .nan, last["atl"] as? Double ?? .nan, last["tsb"] as? Double ?? .nan
        )
        #expect(abs(tsb - (ctl - atl)) < 1e-6 && last["load"] is Double)
        #expect(try setup.run(["fitness"]).output.contains("fitness"))
        #expect(try setup.run(["fitness", "--from", "May"]).status == 2)

        let vdot = try setup.json(["vdot"])
        #expect(vdot["vdot"] is Double)
        let from = try #require(vdot["from"] as? [String: Any])
        #expect(from["run_id"] is String && from["distance_m"] is Double && from["elapsed_s"] is Double)
        let predictions = try #require(vdot["predictions"] as? [[String: Any]])
        #expect(predictions.map { $0["distance_m"] as? Double } == [1500, 5000, 10_000, 21_097.5, 42_195])
        #expect(predictions.allSatisfy { $0["time_s_vdot"] is Double && $0["time_s_riegel"] is Double })
        #expect(try setup.run(["vdot"]).output.contains("Riegel"))
        let early = try setup.run(["vdot", "--at", "1990-01-01"])
        #expect(early.status == 1 && early.output.contains("no run in the 6 weeks up to 1990-01-01"))
        #expect(try setup.run(["vdot", "--at", "soon"]).status == 2)
    }

    @Test(
        "GET /v1/fitness and GET /v1/vdot (no efforts: 404 no_efforts, a bad date: 400); the run page and /fitness show them"
    )
    func routes() async throws {
        try await TrackerServer.with(
            yaml: "time_zone: Europe/Berlin\nconsumers:\n  - type: run-tracker\n",
            filling: { fixture in
                try fixture.insert(Fixtures.run("a", day: 0, duration: 900, pace: 300))
                try fixture.insert(Fixtures.run("b", day: 2, duration: 900, pace: 300))
            }
        ) { server in
            let fitness = try await server.call("GET", "/v1/fitness?from=2024-05-01&to=2024-05-05")
            #expect(fitness.status == 200, "\(fitness.text)")
            let days = try #require(try JSONSerialization.jsonObject(with: fitness.body) as? [[String: Any]])
            #expect(
                days.map { $0["date"] as? String } == [
                    "2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05"
                ])
            #expect(days.map { ($0["load"] as? Double ?? 0) > 0 } == [true, false, true, false, false])
            let vdot = try await server.call("GET", "/v1/vdot")
            #expect(vdot.status == 200, "\(vdot.text)")
            let from = try vdot.json()["from"] as? [String: Any]
            #expect(from?["run_id"] is String)
            let none = try await server.call("GET", "/v1/vdot?at=2020-01-01")
            #expect(none.status == 404 && none.errorCode == "no_efforts")
            #expect(try await server.call("GET", "/v1/fitness?from=soon").status == 400)
            #expect(try await server.call("GET", "/v1/fitness?by=week").status == 400)
            let page = try await server.call("GET", "/runs/a")
            #expect(page.text.contains("Training load"))
            let fitnessPage = try await server.call("GET", "/fitness")
            #expect(fitnessPage.status == 200, "\(fitnessPage.text)")
            #expect(
                fitnessPage.text.contains("<svg") && fitnessPage.text.contains("<polyline")
                    && fitnessPage.text.contains("VDOT <strong>"))
            #expect(
                !fitnessPage.text.contains("http://") || !fitnessPage.text.contains("src=\"http"),
                "no external requests")
        }
    }
}
