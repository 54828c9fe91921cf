import Foundation
import GPSDProtocol
import Logging
import MeridianCLI
import MeridianCore
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Reads fixes from a gpsd daemon over its JSON protocol (`type: gpsd`).
///
/// Connects with SwiftNIO, sends `?WATCH={"enable":true,"json":true}` and
/// `?POLL;`, and merges gpsd's TPV/SKY/GST reports into one `Fix` per epoch.
/// When gpsd is not running, closes the connection or goes silent, the state
/// is reported and the connection is retried with backoff (1 s doubling to 30 s).
package final class GPSDProvider: LocationProvider, Sendable {
    package let id: String
    let options: GPSDOptions
    let timing: GPSDTiming
    private let context: ProviderContext
    private let session: GPSDSession

    /// The registration for `type: gpsd`.
    package static let registration = ProviderType(
        type: "gpsd",
        summary: "Fixes from a gpsd daemon (JSON protocol over TCP), reconnecting with backoff.",
        options: [
            OptionInfo("host", "string", default: "127.0.0.1", "Address gpsd listens on."),
            OptionInfo("port", "integer 1...65535", default: "2947", "gpsd's TCP port."),
            OptionInfo(
                "device", "path", default: "none (every device)", "Use only this gpsd device (e.g. /dev/ttyUSB0).")
        ]
    ) { options, context in
        GPSDProvider(options: try GPSDOptions.decode(options), context: context)
    }

    /// `meridian gpsd`.
    package static let commandLine = PluginCommands([GPSDCommand.self])

    /// Builds a provider from options `host`, `port` and `device`.
    package convenience init(
        host: String = "127.0.0.1", port: Int = 2947, device: String? = nil, context: ProviderContext
    ) {
        self.init(options: GPSDOptions(host: host, port: port, device: device), context: context)
    }

    init(options: GPSDOptions, timing: GPSDTiming = GPSDTiming(), context: ProviderContext) {
        self.id = context.id
        self.options = options
        self.timing = timing
        self.context = context
        self.session = GPSDSession(context: context, endpoint: Self.endpoint(options), device: options.device)
    }

    /// Connects, serves the connection until it ends, and waits with backoff, until shutdown.
    package func run() async throws {
        let endpoint = session.endpoint
        context.health.declare(GPSDStreamDecoder.counterNames + ["overlong_lines", "stalls", "connect_failures"])
        await ReconnectLoop.runUntilShutdown(
            backoff: timing.backoff, health: context.health, logger: context.logger,
            connectingMessage: "connecting to gpsd at \(endpoint)",
            retryCounter: "reconnects"
        ) {
            await self.serveOneConnection().outcome(otherwise: "gpsd at \(endpoint) closed the connection")
        }
    }

    private func serveOneConnection() async -> ConnectionRecord {
        let outcome = ConnectionRecord()
        let session = self.session
        let timing = self.timing
        let watch = Self.watchCommand(device: options.device)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timing.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(BoundedLineDecoder(maximumLength: timing.maximumLineLength)),
                        IdleStateHandler(readTimeout: timing.probeAfter),
                        GPSDConnectionHandler(session: session, outcome: outcome, watchCommand: watch, timing: timing)
                    ])
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: options.host, port: options.port).get()
        } catch {
            outcome.close(
                because: Self.describeConnectFailure(error, endpoint: session.endpoint), counting: "connect_failures")
            return outcome
        }
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        return outcome
    }

    /// `?WATCH={"enable":true,"json":true}` (with `"device"` when one is chosen).
    static func watchCommand(device: String?) -> String {
        var json = #"{"enable":true,"json":true"#
        if let device, let quoted = try? String(decoding: JSONEncoder().encode(device), as: UTF8.self) {
            json += #","device":"# + quoted
        }
        return "?WATCH=" + json + "};"
    }

    static func endpoint(_ options: GPSDOptions) -> String {
        options.host.contains(":") ? "[\(options.host)]:\(options.port)" : "\(options.host):\(options.port)"
    }

    static func describeConnectFailure(_ error: any Error, endpoint: String) -> String {
        let text = "\(error)"
        if text.localizedCaseInsensitiveContains("refused") {
            return "gpsd is not running at \(endpoint) (connection refused); start gpsd or check host/port"
        }
        if case .connectTimeout? = error as? ChannelError {
            return "gpsd at \(endpoint) did not accept the connection in time; check host/port and firewalls"
        }
        return "cannot connect to gpsd at \(endpoint): \(text)"
    }
}
