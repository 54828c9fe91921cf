import Foundation
import Logging
import MeridianCore
import MeridianHTTP
import MeridianStore
import MeridianTesting
import Prometheus
import ServiceLifecycle
import Synchronization
@testable import FlyerProximity

/// A real Meridian HTTP server on 127.0.0.1 and a kernel-chosen port, with a scripted provider
/// and the `flyers` consumer on a real SpatiaLite file.
final class FlyerServer: Sendable {
    let host: PluginHost
    let client: HTTPTestClient
    private let temporary: TemporaryStore
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// `units` is the configuration's `units:`; `options` are extra flow-style options of the flyers entry.
    static func start(units: UnitSystem = .metric, options: String = "") async throws -> FlyerServer {
        let temporary = try TemporaryStore()
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(FlyerPlugin.registration)
        let yaml = """
            units: \(units.rawValue)
            providers:
              - {id: scripted, type: scripted}
            consumers:
              - {type: flyers\(options.isEmpty ? "" : ", " + options)}

            """
        let config = try ConfigLoader.parse(yaml)
        let logger = Logger(label: "flyers-http-test")
        let prometheus = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory(registry: prometheus)
        let resources = Resources()
        resources[StoreKey.self] = temporary.store
        let host = try PluginHost(config: config, registry: registry, logger: logger, resources: resources, metrics: metrics)
        let bound = Mutex<Int?>(nil)
        let app = try MeridianServer.makeApplication(host: host, settings: HTTPSettings(host: "127.0.0.1", port: 0),
                                                     registry: prometheus, metrics: metrics, logger: logger) { port in
            bound.withLock { $0 = port }
        }
        let group = ServiceGroup(configuration: .init(services: [app] + host.services, gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 10, "the server to listen") { bound.withLock { $0 } != nil }
        let port = bound.withLock { $0 } ?? 0
        return FlyerServer(host: host, client: HTTPTestClient(port: port), temporary: temporary, group: group, task: task)
    }

    private init(host: PluginHost, client: HTTPTestClient, temporary: TemporaryStore, group: ServiceGroup, task: Task<Void, any Error>) {
        self.host = host
        self.client = client
        self.temporary = temporary
        self.group = group
        self.task = task
    }

    /// Graceful shutdown, then the database folder is removed.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        defer { temporary.remove() }
        try await task.value
    }

    /// Sends `body` (JSON text) and returns the response.
    func send(_ method: String, _ path: String, _ body: String? = nil) async throws -> HTTPTestClient.Response {
        try await client.request(method, path, body: body.map { Data($0.utf8) })
    }

    /// A fix from the scripted provider, as a receiver would deliver it.
    func move(to coordinate: Coordinate, accuracy: Double = 5) {
        host.receive(Fix.test(coordinate.latitude, coordinate.longitude, accuracy: accuracy), from: "scripted")
    }
}

extension HTTPTestClient.Response {
    /// The `items` of a search or list answer.
    func items() throws -> [[String: Any]] {
        try json()["items"] as? [[String: Any]] ?? []
    }

    /// `error.code` and `error.message` of an error answer.
    func error() throws -> (code: String, message: String) {
        let error = try json()["error"] as? [String: Any]
        return (error?["code"] as? String ?? "", error?["message"] as? String ?? "")
    }
}
