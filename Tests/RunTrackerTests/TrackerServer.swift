import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import RunTracker
import Workloads

/// The full Meridian HTTP application on 127.0.0.1 and a kernel-chosen port, built from a `PluginHost` with one
/// `run-tracker` consumer over `store`, as `meridian serve` builds it.
struct TrackerServer {
    let server: TestServer
    var client: HTTPTestClient { server.client }

    static func start(store: Store, yaml: String = "consumers:\n  - type: run-tracker\n") async throws -> TrackerServer
    {
        var registry = PluginRegistry()
        registry.register(RunTrackerPlugin.registration)
        return TrackerServer(server: try await TestServer.start(yaml: yaml, registry: registry, store: store))
    }

    /// Imports `runs` into a new store, runs `body` against a server on it, and stops the server and removes the
    /// store on every path.
    static func with(_ runs: [SyntheticRun], _ body: (TrackerServer) async throws -> Void) async throws {
        try await with(filling: { fixture in for run in runs { try fixture.insert(run) } }, body)
    }

    /// Fills a new store with `fill`, runs `body` against a server on it configured by `yaml`, and stops the server
    /// and removes the store on every path.
    static func with(
        yaml: String = "consumers:\n  - type: run-tracker\n", filling fill: (HistoryFixture) throws -> Void,
        _ body: (TrackerServer) async throws -> Void
    ) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fill(fixture)
        let server = try await TrackerServer.start(store: fixture.store, yaml: yaml)
        do {
            try await body(server)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    /// Graceful shutdown; waits until every service has stopped.
    func stop() async throws {
        try await server.stop()
    }

    /// Sends a request with an optional JSON body given as text.
    func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> HTTPTestClient.Response {
        try await client.request(method, path, body: body.map { Data($0.utf8) })
    }
}

extension HTTPTestClient.Response {
    /// The `error.code` of an error answer.
    var errorCode: String? {
        ((try? json())?["error"] as? [String: Any])?["code"] as? String
    }
}
