import Foundation
import Logging
import MeridianCore
import MeridianTesting
import NIOCore
import NMEA
import ServiceLifecycle

@testable import GPSDServer

/// A host in this process with two scripted providers (`primary`, priority 10, and `backup`) and a gpsd-server
/// consumer on loopback ports the kernel chose (port 0; the server reports what it bound), running until `stop()`.
final class GPSDServerHarness: Sendable {
    let port: Int
    let nmeaPort: Int
    let host: PluginHost
    let server: GPSDServer
    private let providers: Locked<[String: ScriptedProvider]>
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    init(
        maxClients: Int = 64, clientBuffer: Int = 65_536, staleAfter: Double = 5,
        commandTimeout: TimeAmount = .minutes(15)
    ) async throws {
        let providers = Locked<[String: ScriptedProvider]>([:])
        var registry = PluginRegistry()
        registry.register(
            ScriptedProvider.registration { provider in providers.withLock { $0[provider.id] = provider } })
        registry.register(
            ConsumerType(type: "gpsd-server", summary: "", options: GPSDServer.registration.options) {
                options, context in
                GPSDServer(
                    options: try GPSDServerOptions.decode(options), commandTimeout: commandTimeout, context: context)
            })
        let yaml = """
            providers:
              - {id: primary, type: scripted, priority: 10, stale_after: \(staleAfter)}
              - {id: backup, type: scripted, priority: 1, stale_after: \(staleAfter)}
            consumers:
              - {type: gpsd-server, port: 0, nmea_port: 0, max_clients: \(maxClients), client_buffer: \(clientBuffer)}
            """
        host = try PluginHost(config: try ConfigLoader.parse(yaml), registry: registry, logger: Logger(label: "test"))
        guard let server = host.consumers.first?.consumer as? GPSDServer else {
            throw TestSupportError("no gpsd-server consumer")
        }
        self.server = server
        self.providers = providers
        group = ServiceGroup(
            configuration: .init(services: host.services, gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let group = self.group
        running = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 30, "gpsd-server to listen") { server.listeningPorts.count == 2 }
        port = server.listeningPorts[0]
        nmeaPort = server.listeningPorts[1]
    }

    /// Sends `fix` as provider `id` (`primary` or `backup`).
    func send(_ fix: Fix, from id: String = "primary") throws {
        guard let provider = providers.withLock({ $0[id] }) else { throw TestSupportError("no provider \(id)") }
        provider.send(fix)
    }

    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// The first `count` fixes with a position of a real receiver's log (`nmea/aerorust-nmea1.log`), one second apart.
    static func realFixes(_ count: Int) throws -> [Fix] {
        var decoder = NMEAStreamDecoder(providerID: "log")
        let bytes = try Data(contentsOf: TestData.url("nmea/aerorust-nmea1.log"))
        let fixes = (decoder.feed(bytes) + decoder.finish()).filter(\.hasPosition)
        guard fixes.count >= count else {
            throw TestSupportError("the log has only \(fixes.count) fixes with a position")
        }
        return Array(fixes.prefix(count))
    }

    static func acceptsConnections(port: Int) -> Bool {
        (try? TestSocket(port: port)) != nil
    }
}

/// Runs `body` with a started harness and stops it on every path.
func withGPSDServer<T>(
    maxClients: Int = 64, clientBuffer: Int = 65_536, staleAfter: Double = 5,
    commandTimeout: TimeAmount = .minutes(15),
    _ body: (GPSDServerHarness) async throws -> T
) async throws -> T {
    let harness = try await GPSDServerHarness(
        maxClients: maxClients, clientBuffer: clientBuffer, staleAfter: staleAfter,
        commandTimeout: commandTimeout)
    do {
        let result = try await body(harness)
        try await harness.stop()
        return result
    } catch {
        try? await harness.stop()
        throw error
    }
}
