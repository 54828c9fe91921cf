import Hummingbird
import Logging
import MeridianCore
import Metrics
import NIOCore
import Prometheus

/// Builds Meridian's HTTP application: core routes, every plugin's routes, the pages for people (a
/// `BrowserSite`), bearer or session authentication when a token is set, the cross-site guard, JSON
/// errors, request metrics, HEAD and OPTIONS, and the connection limits (idle, request-head and body timeouts, the
/// connection cap).
public enum MeridianServer {
    /// Refuses settings that would expose the API without authentication, and `http.trusted_proxies` entries that
    /// are not addresses or CIDR ranges.
    public static func validate(_ settings: HTTPSettings) throws(ConfigError) {
        guard settings.isLoopback || !(settings.token ?? "").isEmpty else {
            throw ConfigError(
                path: "http.host",
                message:
                    "'\(settings.host)' is not a loopback address; set http.token (or MERIDIAN_TOKEN) so that every request needs a bearer token, or bind 127.0.0.1"
            )
        }
        if settings.openLoopback && !settings.isLoopback {
            throw ConfigError(
                path: "http.open_loopback",
                message:
                    "only applies to a loopback http.host, and '\(settings.host)' is not one; remove http.open_loopback"
            )
        }
        _ = try trustedProxies(settings)
    }

    /// `http.trusted_proxies`, parsed.
    static func trustedProxies(_ settings: HTTPSettings) throws(ConfigError) -> [AddressRange] {
        var ranges: [AddressRange] = []
        for (index, entry) in settings.trustedProxies.enumerated() {
            guard let range = AddressRange(entry) else {
                throw ConfigError(
                    path: "http.trusted_proxies[\(index)]",
                    message:
                        "'\(entry)' is not an IP address or CIDR range; give the proxy's address as it connects, such as 127.0.0.1, ::1 or 10.0.0.0/8"
                )
            }
            ranges.append(range)
        }
        return ranges
    }

    /// The router with every route mounted (also used by tests without a socket); `site` adds the pages, `routes`
    /// core routes beyond `CoreRoutes` (the webhooks').
    public static func makeRouter(
        host: PluginHost, settings: HTTPSettings, registry: PrometheusCollectorRegistry,
        metrics: any MetricsFactory, site: (any BrowserSite)? = nil, routes: [any HTTPRoutes] = []
    ) -> Router<MeridianRequestContext> {
        let router = Router(context: MeridianRequestContext.self, options: .autoGenerateHeadEndpoints)
        let routeMethods = RouteMethods()
        // `validate` has refused entries that do not parse.
        let proxies = (try? trustedProxies(settings)) ?? []
        let attempts = CredentialAttempts(metrics: metrics)
        router.add(
            middleware: ForwardedClientMiddleware(
                resolver: ForwardedClient(trusted: proxies, directTLS: settings.tls != nil),
                attempts: attempts))
        router.add(middleware: ErrorJSONMiddleware(routeMethods: routeMethods))
        router.add(middleware: RequestMetricsMiddleware(factory: metrics))
        let token = settings.token.flatMap { $0.isEmpty ? nil : $0 }
        router.add(middleware: CrossSiteGuard(configuredHost: settings.host.lowercased(), checkHost: token == nil))
        let sessions = token.map { BrowserSessions(token: $0, attempts: attempts) }
        let plugins: [Any] = host.providers.map(\.provider) + host.consumers.map(\.consumer)
        if let token {
            let publicPrefixes = plugins.compactMap { ($0 as? any HTTPRoutes)?.publicPathPrefixes }.flatMap { $0 }
            router.add(
                middleware: BearerAuthMiddleware(
                    token: token, protectHealth: settings.protectHealth, attempts: attempts,
                    sessions: site == nil ? nil : sessions, site: site,
                    publicPrefixes: publicPrefixes))
        }
        router.add(middleware: OptionsMiddleware(routeMethods: routeMethods))
        let v1 = router.group("v1")
        CoreRoutes(host: host, registry: registry, token: token).add(to: router, v1: v1)
        for case let routes as any HTTPRoutes in plugins {
            routes.addRoutes(to: v1)
        }
        for core in routes { core.addRoutes(to: v1) }
        site?.addRoutes(to: router, sessions: sessions)
        routeMethods.record(router)
        return router
    }

    /// The application as a `Service`, answering HTTPS with `certificate` when one is given (`http.tls`);
    /// `onListening` receives the bound port (useful with port 0).
    public static func makeApplication(
        host: PluginHost, settings: HTTPSettings, registry: PrometheusCollectorRegistry, metrics: any MetricsFactory,
        site: (any BrowserSite)? = nil, routes: [any HTTPRoutes] = [], certificate: ServerCertificate? = nil,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(ConfigError) -> some ApplicationProtocol {
        try validate(settings)
        guard !(settings.token ?? "").isEmpty || settings.openLoopback else {
            throw ConfigError(
                path: "http.token",
                message:
                    "no token to require: set http.token or MERIDIAN_TOKEN (`meridian serve` makes one beside the database), or set http.open_loopback: true to answer loopback requests without one"
            )
        }
        let router = makeRouter(
            host: host, settings: settings, registry: registry, metrics: metrics, site: site, routes: routes)
        return Application(
            router: router,
            server: .guardedHTTP1(settings, certificate: certificate),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "meridian"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? settings.port) },
            logger: logger
        )
    }
}
