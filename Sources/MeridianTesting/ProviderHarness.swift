import Foundation
import Logging
import MeridianCore
import ServiceLifecycle

/// Runs one provider in a service group and records what it emits.
public final class ProviderHarness: Sendable {
    public let context: ProviderContext
    private let collected = Locked<[Fix]>([])
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>

    /// Builds the provider with a context whose fixes are recorded, and starts it.
    public init(id: String, make: (ProviderContext) throws -> any LocationProvider) throws {
        let collected = self.collected
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        context = ProviderContext(plugin: PluginContext(id: id, logger: logger)) { fix in
            collected.withLock { $0.append(fix) }
        }
        let provider = try make(context)
        let group = ServiceGroup(
            configuration: .init(services: [provider], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        runner = Task { try await group.run() }
    }

    /// Fixes emitted so far.
    public var fixes: [Fix] { collected.value }
    /// The provider's reported state and counters.
    public var health: ProviderHealth.Snapshot { context.health.snapshot }

    /// Requests graceful shutdown and waits for the provider to stop.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runner.value
    }

    /// Runs `body` with a harness, stopping it on every path.
    public static func with<T>(
        id: String, make: (ProviderContext) throws -> any LocationProvider,
        _ body: (ProviderHarness) async throws -> T
    ) async throws -> T {
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
