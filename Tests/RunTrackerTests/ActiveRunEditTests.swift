import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// A name or notes edited while the run is live outlast the tracker's flushes (they write the run's figures).
@Suite("Editing an active run over HTTP")
struct ActiveRunEditTests {
    @Test("PATCH of an active run's name and notes survives the flushes of pause and stop")
    func editSurvivesFlush() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let server = try await TrackerServer.start(store: folder.store)
        do {
            let started = try await server.call("POST", "/v1/runs", #"{"name": "Evening", "activity": "run"}"#)
            #expect(started.status == 201)
            let id = try #require((try started.json()["run"] as? [String: Any])?["id"] as? String)
            let edited = try await server.call("PATCH", "/v1/runs/\(id)", #"{"name": "Park loop", "notes": "windy"}"#)
            #expect(edited.status == 200, "\(edited.text)")
            // Pausing flushes the live run. Before: the flush wrote the tracker's name and notes over the edit.
            #expect(try await server.call("POST", "/v1/runs/\(id)/pause").status == 200)
            let run = try #require(try await server.call("GET", "/v1/runs/\(id)").json()["run"] as? [String: Any])
            #expect(run["name"] as? String == "Park loop")
            #expect(run["notes"] as? String == "windy")
            // The live status and the run's events say the new name at once, not only once the run ends.
            let active = try await server.call("GET", "/v1/runs/active").json()["run"] as? [String: Any]
            #expect(
                active?["name"] as? String == "Park loop" && active?["notes"] as? String == "windy", "\(active ?? [:])")
            #expect(try await server.call("POST", "/v1/runs/\(id)/stop").status == 200)
            let stopped = try await server.call("GET", "/v1/runs/\(id)").json()["run"] as? [String: Any]
            #expect(stopped?["name"] as? String == "Park loop")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
