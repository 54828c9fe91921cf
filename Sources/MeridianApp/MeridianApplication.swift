import Logging
import MeridianCore
import MeridianHTTP
import MeridianHooks
import MeridianStore
import MeridianWeb
import Metrics
import Prometheus
import ServiceLifecycle

/// Meridian's application, assembled in one place for `meridian serve` and for the tests (`TestServer`): the
/// plugins of a configuration on a `PluginHost`, the web app for people and the HTTP API, as services to run in
/// one `ServiceGroup`. With `http.port` 0 the kernel chooses the port, and `onListening` receives it.
public struct MeridianApplication: Sendable {
    /// The running plugins.
    public let host: PluginHost
    /// The HTTP server, then every plugin's service: a `ServiceGroup` stops them in reverse order, so the
    /// consumers drain before the server stops.
    public let services: [any Service]

    /// Builds the plugins of `config` from `plugins` with `resources` (the store under `StoreKey`), and the HTTP
    /// application on `config.http`, over TLS with `certificate`. `prometheus` answers `/metrics` and `metrics`
    /// (by default a factory on it) counts the plugins' and the requests' figures.
    public init(
        config: MeridianConfig, plugins: PluginRegistry, resources: Resources = Resources(),
        prometheus: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), metrics: (any MetricsFactory)? = nil,
        certificate: ServerCertificate? = nil, leafletDirectory: String = WebShell.leafletDirectory, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws {
        let metrics = metrics ?? PrometheusMetricsFactory(registry: prometheus)
        host = try PluginHost(config: config, registry: plugins, logger: logger, resources: resources, metrics: metrics)
        let hooks = try Self.hooks(config: config, store: resources[StoreKey.self], logger: logger)
        if let hooks { host.events.attach(journal: hooks) }
        let site = WebShell(host: host, config: config, leafletDirectory: leafletDirectory, logger: logger)
        let app = try MeridianServer.makeApplication(
            host: host, settings: config.http, registry: prometheus, metrics: metrics,
            site: site, routes: hooks.map { [$0.routes] } ?? [], certificate: certificate, logger: logger,
            onListening: onListening)
        // The hooks' delivery stops first; the consumers' events while they drain are in the outbox for the next start.
        services = [app] + host.services + (hooks.map { [$0] } ?? [])
    }

    /// The webhooks' dispatcher on `store` (nil without a store; `hooks:` without one is refused).
    private static func hooks(config: MeridianConfig, store: Store?, logger: Logger) throws -> HookDispatcher? {
        guard let store else {
            guard config.hooks.isEmpty else {
                throw ConfigError(
                    file: config.file, path: "hooks", message: "webhooks keep their outbox in the store; set store.path"
                )
            }
            return nil
        }
        do {
            return try HookDispatcher(store: store, configured: config.hooks, logger: logger)
        } catch let refusal as HookTable.Refusal {
            throw ConfigError(file: config.file, path: "hooks", message: refusal.description)
        }
    }
}
