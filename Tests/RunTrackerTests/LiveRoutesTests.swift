import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// The live routes of the plugin on a real HTTP socket (the full application from `TrackerServer`, real SpatiaLite file).
@Suite struct LiveRoutesTests {
    @Test func startPauseStopDiscardAndTheirErrors() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let server = try await TrackerServer.start(store: folder.store)
        do {
            try await exercise(server)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    private func exercise(_ server: TrackerServer) async throws {
        let none = try await server.call("GET", "/v1/runs/active")
        #expect(none.status == 404 && none.errorCode == "no_active_run")

        let bad = try await server.call("POST", "/v1/runs", #"{"activity": "swim"}"#)
        #expect(bad.status == 400)
        #expect(bad.text.contains("run, walk, hike, ride, other"))

        let started = try await server.call("POST", "/v1/runs", #"{"name": "Evening", "activity": "walk"}"#)
        #expect(started.status == 201)
        let status = try MeridianJSON.makeDecoder().decode(DurabilityProcessTests.Status.self, from: started.body)
        #expect(status.waitingForGps)
        #expect(status.run.name == "Evening" && status.run.activity == .walk && status.run.state == .tracking)
        #expect(started.text.contains("\"message\":\"waiting for GPS\""))
        // Before any fix the unknown figures are null, not missing.
        let body = try started.json()
        for key in ["signal_quality", "horizontal_accuracy_m", "current_speed_mps", "current_pace_s_per_km"] {
            #expect(body[key] is NSNull, "\(key)")
        }
        #expect((body["run"] as? [String: Any])?["ended_at"] is NSNull)
        let id = status.run.id

        let second = try await server.call("POST", "/v1/runs", "")
        #expect(second.status == 409 && second.errorCode == "run_active")
        let unknown = try await server.call("POST", "/v1/runs/nope/pause")
        #expect(unknown.status == 404 && unknown.errorCode == "run_not_found")

        for _ in 0..<2 {
            let paused = try await server.call("POST", "/v1/runs/\(id)/pause")
            #expect(paused.status == 200)
            #expect(
                try MeridianJSON.makeDecoder().decode(DurabilityProcessTests.Status.self, from: paused.body).run.state
                    == .paused)
        }
        let stopped = try await server.call("POST", "/v1/runs/\(id)/stop")
        #expect(stopped.status == 200)
        #expect(stopped.text.contains("\"saved\":false") && stopped.text.contains("too short"))
        let afterStop = try await server.call("POST", "/v1/runs/\(id)/pause")
        #expect(afterStop.status == 409 && afterStop.errorCode == "run_not_active")

        // Starting again with a finished run's id is its own conflict, which says what to do.
        let restart = try await server.call("POST", "/v1/runs", #"{"id": "\#(id)"}"#)
        #expect(restart.status == 409 && restart.errorCode == "run_finished")
        #expect(restart.text.contains("has already finished") && restart.text.contains("without an id"))

        #expect(try await server.call("POST", "/v1/runs/\(id)/discard").status == 204)
        let discarded = try await server.call("POST", "/v1/runs/\(id)/discard")
        #expect(discarded.status == 404 && discarded.errorCode == "run_not_found")
    }
}
