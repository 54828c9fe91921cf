import Foundation
import Logging
import MeridianCore
import ServiceLifecycle

/// Runs one provider in a service group and records what it emits.
final class ProviderHarness: Sendable {
    let context: ProviderContext
    private let collected = Locked<[Fix]>([])
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>

    init(id: String = "gpsd-test", make: (ProviderContext) throws -> any LocationProvider) throws {
        let collected = self.collected
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        context = ProviderContext(plugin: PluginContext(id: id, logger: logger)) { fix in
            collected.withLock { $0.append(fix) }
        }
        let provider = try make(context)
        let group = ServiceGroup(configuration: .init(services: [provider], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        runner = Task { try await group.run() }
    }

    var fixes: [Fix] { collected.withLock { $0 } }
    var health: ProviderHealth.Snapshot { context.health.snapshot }

    /// Requests graceful shutdown and waits for the provider to stop.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runner.value
    }

    /// Runs `body` with a harness, stopping it on every path.
    static func with<T>(id: String = "gpsd-test", make: (ProviderContext) throws -> any LocationProvider,
                        _ body: (ProviderHarness) async throws -> T) async throws -> T {
        let harness = try ProviderHarness(id: id, make: make)
        do {
            let result = try await body(harness)
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }
}
