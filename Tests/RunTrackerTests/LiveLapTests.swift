import ActivityFiles
import Foundation
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Synchronization
import Testing
import Workloads

@testable import RunTracker

/// The lap button of a live run: each press stores a lap at once (trigger manual) that the status shows; the saved
/// run keeps its laps, the last one closed at the stop; a restarted service goes on with the lap in progress; the
/// FIT and TCX exports write them.
@Suite("Live laps: the lap button")
struct LiveLapTests {
    static func controller(_ store: Store, clock: LiveMatchesImportTests.FixClock) throws -> LiveRunController {
        LiveRunController(
            runStore: try RunStore(store: store), settings: TrackerSettings(), events: EventBus(), units: .metric,
            logger: Logger(label: "test"), clock: { clock.now() })
    }

    /// A controller over `store` whose clock the test sets, with `run` started as id `run.id`.
    static func started(_ run: SyntheticRun, in store: Store) async throws -> (
        LiveRunController, LiveMatchesImportTests.FixClock
    ) {
        let clock = LiveMatchesImportTests.FixClock()
        clock.set(run.startedAt)
        let controller = try Self.controller(store, clock: clock)
        #expect(try await controller.lap() == nil)  // no run: nothing to close
        _ = try await controller.start(name: run.name, activity: .run, id: run.id)
        return (controller, clock)
    }

    @Test("two presses and a stop: three laps that add up to the run, stored at once, kept and exported")
    func lapsOfALiveRun() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let run = Fixtures.run("live", day: 0, duration: 900, pace: 300)
        let (started, clock) = try await Self.started(run, in: folder.store)
        var controller = started
        let store = try RunStore(store: folder.store)
        var pressed: [LiveStatus] = []
        for fix in run.fixes {
            clock.set(fix.time)
            await controller.consume(fix)
            let second = Int(fix.time.timeIntervalSince(run.startedAt).rounded())
            guard second == 300 || second == 600 else { continue }
            let status = try #require(try await controller.lap())
            pressed.append(status)
            // Stored at once, and shown by the status.
            #expect(try await store.laps(runID: "live").count == pressed.count)
            #expect(status.laps.count == pressed.count && status.currentLap.index == pressed.count + 1)
            #expect(status.laps.last?.trigger == "manual")
            #expect(status.currentLap.distanceM == 0 && status.currentLap.timeS == 0)
            if second == 300 {
                // A restarted service goes on with the lap in progress.
                await controller.settle()
                controller = try Self.controller(folder.store, clock: clock)
                #expect(try await controller.activeStatus()?.laps.count == 1)
            }
        }
        let first = try #require(pressed.first?.laps.first)
        #expect(abs((first.distanceM ?? 0) - pressed[0].run.distance) < 1e-6)
        #expect(abs((first.timerS ?? 0) - 300) < 1.5)
        let saved = try await controller.stop(id: "live").run
        #expect(saved.state == .stopped)

        let laps = try await store.laps(runID: "live")
        #expect(laps.map(\.trigger) == [.manual, .manual, .sessionEnd])
        #expect(abs(laps.compactMap(\.distance).reduce(0, +) - saved.distance) < 1e-6)
        #expect(abs(laps.compactMap(\.timerTime).reduce(0, +) - saved.timerTime) < 1e-6)
        #expect(zip(laps, laps.dropFirst()).allSatisfy { $0.start < $1.start })

        let detail = try await RunHistory(store: folder.store).detail(id: "live")
        #expect(detail.laps.map(\.trigger) == ["manual", "manual", "session_end"])
        let points = try await store.points(runID: "live")
        let fit = ExportFormat.fit.file(run: saved, points: points, deviceLaps: laps)
        let back = try #require(try ActivityFileReader.read(fit, file: "live.fit").first)
        #expect(back.laps.map(\.trigger) == [.manual, .manual, .sessionEnd])
        #expect(zip(back.laps, laps).allSatisfy { abs(($0.distance ?? 0) - ($1.distance ?? 0)) < 0.01 })
        let tcx = ExportFormat.tcx.file(run: saved, points: points, deviceLaps: laps)
        #expect(try #require(try ActivityFileReader.read(tcx, file: "live.tcx").first).laps.count == 3)
    }

    @Test("a run whose button was never pressed has no laps (its exports keep the kilometre laps)")
    func noPressNoLaps() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let run = Fixtures.run("plain", day: 0, duration: 300, pace: 300)
        let (controller, clock) = try await Self.started(run, in: folder.store)
        for fix in run.fixes {
            clock.set(fix.time)
            await controller.consume(fix)
        }
        _ = try await controller.stop(id: "plain")
        #expect(try await RunStore(store: folder.store).laps(runID: "plain").isEmpty)
    }

    @Test("POST /v1/runs/active/lap: 404 without a run, else 201 with the lap in the status and the run's detail")
    func overHTTP() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let server = try await TrackerServer.start(store: folder.store)
        do {
            let none = try await server.call("POST", "/v1/runs/active/lap")
            #expect(none.status == 404 && none.errorCode == "no_active_run")
            let started = try await server.call("POST", "/v1/runs", #"{"name": "Track", "activity": "run"}"#)
            let id = try #require((try started.json()["run"] as? [String: Any])?["id"] as? String)
            let lap = try await server.call("POST", "/v1/runs/active/lap")
            #expect(lap.status == 201)
            let body = try lap.json()
            let laps = try #require(body["laps"] as? [[String: Any]])
            #expect(laps.count == 1 && laps[0]["trigger"] as? String == "manual" && laps[0]["index"] as? Int == 1)
            #expect((body["current_lap"] as? [String: Any])?["index"] as? Int == 2)
            #expect((body["text"] as? [String: Any])?["lap"] as? String != nil)
            let detail = try await server.call("GET", "/v1/runs/\(id)").json()
            #expect((detail["laps"] as? [[String: Any]])?.count == 1)
            let card = try await server.call("GET", "/now/run")
            #expect(card.text.contains("id=\"lap-button\"") && card.text.contains("Last lap 1:"))
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
