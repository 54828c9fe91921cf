import Foundation
import Logging
import MeridianCore
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The `gpsd-server` consumer: serves the fused fix (and each provider's own fixes) to gpsd's clients over gpsd's
/// JSON protocol, and optionally as NMEA 0183 over TCP on `nmea_port`.
package final class GPSDServer: LocationConsumer, Sendable {
    /// The registration for `type: gpsd-server`.
    package static let registration = ConsumerType(
        type: "gpsd-server",
        summary: "Serves the fused fix to gpsd clients (gpsd's JSON protocol on port 2947) and as NMEA 0183 over TCP.",
        options: GPSDServerOptions.info
    ) { options, context in
        GPSDServer(options: try GPSDServerOptions.decode(options), context: context)
    }

    package let id: String
    let options: GPSDServerOptions
    /// A client that has not asked to watch is closed after this long without a request (gpsd's COMMAND_TIMEOUT,
    /// 15 minutes), so connections that went away without a word do not keep their slot.
    let commandTimeout: TimeAmount
    let hub: GPSDClientHub
    private let logger: Logger
    private let listening = Mutex<[Int]>([])

    init(options: GPSDServerOptions, commandTimeout: TimeAmount = .minutes(15), context: PluginContext) {
        self.id = context.id
        self.options = options
        self.commandTimeout = commandTimeout
        self.logger = context.logger
        let tap = context.resources[ProviderFixTap.Key.self]
        hub = GPSDClientHub(id: context.id, maxClients: options.maxClients, providers: tap?.providers ?? [])
        let hub = self.hub
        tap?.observe { hub.publishOwn($0) }
        // Observed only here, so NMEA providers hand on their sentences only when a gpsd server is configured.
        context.resources[SentenceTap.Key.self]?.observe { hub.publishSentence($0) }
    }

    package func consume(_ fix: Fix) async {
        hub.publishFused(fix)
    }

    /// Listens until graceful shutdown, then closes every connection.
    package func run() async throws {
        if !LoopbackAddress.isLoopback(options.host) {
            logger.warning(
                "gpsd-server listens on \(options.host), beyond this machine: gpsd's protocol has no authentication")
        }
        var listeners = [try await listen(port: options.port, kind: .json)]
        if let nmeaPort = options.nmeaPort {
            do {
                listeners.append(try await listen(port: nmeaPort, kind: .nmea))
            } catch {
                try? await listeners[0].close()
                throw error
            }
        }
        let ports = listeners.compactMap { $0.localAddress?.port }
        listening.withLock { $0 = ports }
        // The ports bound, which port 0 leaves to the kernel.
        logger.notice(
            "gpsd-server listening on \(Self.endpoint(options.host, ports.first ?? options.port))",
            metadata: [
                "host": "\(options.host)", "port": "\(ports.first ?? options.port)",
                "nmea_port": "\(ports.count > 1 ? String(ports[1]) : "none")"
            ])
        try? await gracefulShutdown()
        listening.withLock { $0 = [] }
        for listener in listeners { try? await listener.close() }
        hub.closeAll()
    }

    /// The `release` (and `rev`) of the VERSION report: Meridian's own, named so. Clients that check anything check
    /// `proto_major`/`proto_minor` and only print the release (`cgps` warns that it is not its own "3.22" and works on).
    static let release = "Meridian \(MeridianVersion.current)"

    /// The ports accepting connections now (the gpsd port, then `nmea_port`), as bound (port 0 leaves the choice to
    /// the kernel); empty before `run()` has bound them.
    var listeningPorts: [Int] { listening.withLock { $0 } }

    private func listen(port: Int, kind: GPSDClientHandler.Kind) async throws -> any Channel {
        let hub = self.hub
        let buffer = options.clientBuffer
        let commandTimeout = self.commandTimeout
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // The kernel's own buffer is kept to the client's share too, so a stuck client is noticed early.
            .childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(buffer))
            .childChannelOption(.writeBufferWaterMark, value: .init(low: buffer / 2, high: buffer))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if kind == .json {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: commandTimeout))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        GPSDClientHandler(kind: kind, hub: hub, release: Self.release))
                }
            }
        do {
            return try await bootstrap.bind(host: options.host, port: port).get()
        } catch {
            let endpoint = Self.endpoint(options.host, port)
            let key = kind == .json ? "port" : "nmea_port"
            let problem =
                "\(error)".localizedCaseInsensitiveContains("in use")
                ? "the address is in use: another program (often gpsd itself: systemctl stop gpsd.socket gpsd) listens there; stop it or set \(key)"
                : "\(error); check host and \(key)"
            throw PluginStartError(plugin: id, message: "cannot listen on \(endpoint): \(problem)")
        }
    }

    private static func endpoint(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
