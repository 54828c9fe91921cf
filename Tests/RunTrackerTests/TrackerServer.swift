import Foundation
import Logging
import MeridianCore
import MeridianHTTP
import MeridianStore
import MeridianTesting
import Prometheus
import RunTracker
import ServiceLifecycle
import Synchronization

/// The full Meridian HTTP application on 127.0.0.1 and a kernel-chosen port, built from a `PluginHost` with one
/// `run-tracker` consumer over `store`, as `meridian serve` builds it.
final class TrackerServer: Sendable {
    let client: HTTPTestClient
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start(store: Store) async throws -> TrackerServer {
        var registry = PluginRegistry()
        registry.register(RunTrackerPlugin.registration)
        let resources = Resources()
        resources[StoreKey.self] = store
        let logger = Logger(label: "run-tracker-http-test")
        let prometheus = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory(registry: prometheus)
        let host = try PluginHost(config: ConfigLoader.parse("consumers:\n  - type: run-tracker\n"), registry: registry,
                                  logger: logger, resources: resources, metrics: metrics)
        let bound = Mutex<Int?>(nil)
        let app = try MeridianServer.makeApplication(host: host, settings: HTTPSettings(host: "127.0.0.1", port: 0),
                                                     registry: prometheus, metrics: metrics, logger: logger) { port in
            bound.withLock { $0 = port }
        }
        let group = ServiceGroup(configuration: .init(services: [app] + host.services, gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 10, "the server to listen") { bound.withLock { $0 } != nil }
        return TrackerServer(client: HTTPTestClient(port: bound.withLock { $0 } ?? 0), group: group, task: task)
    }

    private init(client: HTTPTestClient, group: ServiceGroup, task: Task<Void, any Error>) {
        self.client = client
        self.group = group
        self.task = task
    }

    /// Graceful shutdown; waits until every service has stopped.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
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
