import Foundation
import Logging
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Prometheus
import ServiceLifecycle
import Synchronization

/// A real Meridian HTTP server on 127.0.0.1 and a kernel-chosen port, with one scripted provider.
final class RunningServer: Sendable {
    let host: PluginHost
    let port: Int
    let client: HTTPTestClient
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start(token: String? = nil, yaml: String = "providers:\n  - {id: scripted, type: scripted}\n") async throws -> RunningServer {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        let config = try ConfigLoader.parse(yaml)
        let logger = Logger(label: "http-test")
        let prometheus = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory(registry: prometheus)
        let host = try PluginHost(config: config, registry: registry, logger: logger, metrics: metrics)
        let bound = Mutex<Int?>(nil)
        let settings = HTTPSettings(host: "127.0.0.1", port: 0, token: token)
        let app = try MeridianServer.makeApplication(host: host, settings: settings, registry: prometheus,
                                                     metrics: metrics, logger: logger) { port in bound.withLock { $0 = port } }
        let group = ServiceGroup(configuration: .init(services: [app] + host.services, gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 10, "the server to listen") { bound.withLock { $0 } != nil }
        let port = bound.withLock { $0 } ?? 0
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return RunningServer(host: host, port: port, client: HTTPTestClient(port: port, headers: headers), group: group, task: task)
    }

    private init(host: PluginHost, port: Int, client: HTTPTestClient, group: ServiceGroup, task: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.client = client
        self.group = group
        self.task = task
    }

    /// Graceful shutdown; waits until every service has stopped.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
