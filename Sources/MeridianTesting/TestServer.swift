import Foundation
import Logging
import MeridianApp
import MeridianCore
import MeridianStore
import MeridianWeb
import ServiceLifecycle

/// The full Meridian application (`MeridianApplication`, as `meridian serve` builds it, the web pages included)
/// on 127.0.0.1 and a kernel-chosen port, built from a configuration and a registry, for route tests over a real
/// socket. With `store`, the store is shared with the plugins under `StoreKey`.
public final class TestServer: Sendable {
    public let host: PluginHost
    public let port: Int
    /// A client for this server (with the bearer token when one was given).
    public let client: HTTPTestClient
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Parses `yaml`, builds the plugins from `registry` and starts serving.
    /// `leafletDirectory` replaces the system's Leaflet (a missing folder shows pages without it).
    public static func start(
        yaml: String, registry: PluginRegistry, store: Store? = nil, token: String? = nil,
        leafletDirectory: String = WebShell.leafletDirectory
    ) async throws -> TestServer {
        var logger = Logger(label: "test-server")
        logger.logLevel = Self.logLevel
        let resources = Resources()
        if let store { resources[StoreKey.self] = store }
        var config = try ConfigLoader.parse(yaml)
        // The `http:` section's other settings (such as `trusted_proxies`) stay.
        (config.http.host, config.http.port, config.http.token) = ("127.0.0.1", 0, token)
        // Without a token, the tests reach the routes as `http.open_loopback` does.
        config.http.openLoopback = token == nil
        let bound = Locked<Int?>(nil)
        let application = try MeridianApplication(
            config: config, plugins: registry, resources: resources,
            leafletDirectory: leafletDirectory, logger: logger
        ) { port in
            bound.withLock { $0 = port }
        }
        let host = application.host
        let group = ServiceGroup(
            configuration: .init(services: application.services, gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 30, "the server to listen") { bound.value != nil }
        let port = bound.value ?? 0
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return TestServer(
            host: host, port: port, client: HTTPTestClient(port: port, headers: headers), group: group, task: task)
    }

    /// The servers' log level: `MERIDIAN_TEST_LOG_LEVEL` (such as `debug`, which shows each service stopping), else
    /// `critical`.
    static var logLevel: Logger.Level {
        ProcessInfo.processInfo.environment["MERIDIAN_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? .critical
    }

    private init(host: PluginHost, port: Int, client: HTTPTestClient, group: ServiceGroup, task: Task<Void, any Error>)
    {
        self.host = host
        self.port = port
        self.client = client
        self.group = group
        self.task = task
    }

    /// Graceful shutdown; waits until every service has stopped.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }

    /// Runs `body` against the started server and stops it on every path.
    public func run<T>(_ body: (TestServer) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            try await stop()
            return result
        } catch {
            try? await stop()
            throw error
        }
    }
}
