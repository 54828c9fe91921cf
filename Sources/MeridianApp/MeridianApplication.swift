import Logging
import MeridianCore
import MeridianHTTP
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
        let site = WebShell(host: host, config: config, leafletDirectory: leafletDirectory, logger: logger)
        let app = try MeridianServer.makeApplication(
            host: host, settings: config.http, registry: prometheus, metrics: metrics,
            site: site, certificate: certificate, logger: logger, onListening: onListening)
        services = [app] + host.services
    }
}
