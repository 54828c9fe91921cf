import ArgumentParser
import Foundation
import Logging
import MeridianApp
import MeridianCLI
import MeridianCore
import MeridianHTTP
import MeridianStore
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// `meridian serve`: runs the providers, consumers and the HTTP API until SIGTERM/SIGINT; SIGHUP reloads logging.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the service on a configuration file (default Config/meridian.yaml or MERIDIAN_CONFIG)."
    )

    @Option(name: .long, help: "Configuration file.")
    var config: String?

    func run() async throws {
        // Trapped first: SIGHUP's default action would end the process (see `ReloadService`).
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        try await reportingFailures {
            let environment = ProcessInfo.processInfo.environment
            let path = ConfigLoader.resolvePath(config, environment: environment)
            let settings: MeridianConfig
            let certificate: ServerCertificate?
            do {
                settings = try ConfigLoader.load(path: path, environment: environment)
                try MeridianServer.validate(settings.http)
                try MeridianServer.checkCanListen(settings.http)
                certificate = try settings.http.tls.map { settings throws(ConfigError) in
                    try ServerCertificate(settings: settings)
                }
            } catch var error as ConfigError {
                if error.file == nil { error.file = path }
                throw CommandFailure("\(error)", code: 2)
            }
            let logger = LogSetup.bootstrap(level: settings.logLevel, environment: environment)
            let registry = PrometheusCollectorRegistry()
            let metrics = PrometheusMetricsFactory(registry: registry)
            MetricsSystem.bootstrap(metrics)

            let resources = Resources()
            let store: Store
            do {
                // The service runs for a long time on what it reads: every page and index is checked, in the
                // background (`StoreCheckService`) while the service answers. Unless the file is exactly as this
                // service left it after such a check, writes are refused from when the plugins are set up until
                // the check passes (`holdWritesUntilChecked`).
                store = try Store.open(
                    path: settings.store.path, check: .integrityInBackground,
                    busyTimeout: settings.store.busyTimeout, logger: logger)
                // A new database receives every schema `meridian --version` names, whatever plugins are configured.
                for schema in StandardPlugins.schemas { try store.migrate(schema) }
                resources[StoreKey.self] = store
                resources[StoreConditionKey.self] = store
            } catch {
                throw CommandFailure("\(error)")
            }
            let access = try ServeAccess(config: settings, logger: logger)
            let served = access.apply(to: settings)
            let systemd = SystemdNotifier(environment: environment, logger: logger)
            let application: MeridianApplication
            do {
                application = try MeridianApplication(
                    config: served, plugins: StandardPlugins.registry, resources: resources, prometheus: registry,
                    metrics: metrics,
                    certificate: certificate, logger: logger
                ) { port in
                    // First, so that whoever waits for "listening on" finds the link in the log already.
                    access.announce(http: served.http, port: port, logger: logger)
                    let scheme = certificate == nil ? "http" : "https"
                    logger.notice(
                        "Meridian \(MeridianVersion.current) listening on \(scheme)://\(served.http.host):\(port) (config \(path))\(certificate.map { "; TLS \($0.summary)" } ?? "")"
                    )
                    systemd?.ready(port: port)
                }
            } catch let error as ConfigError {
                throw CommandFailure("\(error)", code: 2)
            }
            do {
                try store.holdWritesUntilChecked()
            } catch {
                throw CommandFailure("\(error)")
            }
            // Shutdown runs in reverse order: the host drains the consumers first, the HTTP server stops last.
            let group = ServiceGroup(
                configuration: .init(
                    services: application.services
                        + (store.wholeFileCheckDeferred ? [StoreCheckService(store: store, logger: logger)] : [])
                        + [
                            ReloadService(
                                signals: hangups, configPath: path, environment: environment, certificate: certificate,
                                logger: logger)
                        ]
                        + (systemd.map { [$0] } ?? []),
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                ))
            if store.writesHeldUntilChecked {
                logger.notice(
                    "store: \(store.path) was not closed cleanly by a checked service (a crash, kill -9, or another program wrote it); checking it in the background, writes are refused (503) until the check passes"
                )
            } else if store.wholeFileCheckDeferred {
                logger.notice(
                    "store: \(store.path) is as this service left it after its last check; checking it again in the background"
                )
            }
            try await group.run()
            store.close(logger: logger)
            logger.notice("Meridian stopped")
        }
    }
}
