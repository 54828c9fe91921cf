import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import RunTracker

/// The full Meridian HTTP application on 127.0.0.1 and a kernel-chosen port, built from a `PluginHost` with one
/// `run-tracker` consumer over `store`, as `meridian serve` builds it.
struct TrackerServer {
    let server: TestServer
    var client: HTTPTestClient { server.client }

    static func start(store: Store, yaml: String = "consumers:\n  - type: run-tracker\n") async throws -> TrackerServer {
        var registry = PluginRegistry()
        registry.register(RunTrackerPlugin.registration)
        return TrackerServer(server: try await TestServer.start(yaml: yaml, registry: registry, store: store))
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
