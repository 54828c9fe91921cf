import Logging
import ServiceLifecycle

/// Runs one provider inside the host's service group so that its end never ends the service: a provider
/// that returns is reported `finished` (unless it reported `finished` or `failed` itself), one that throws is
/// reported `failed` with the error, and either way the service keeps running the others until shutdown.
struct ProviderService: Service {
    let provider: any LocationProvider
    let health: ProviderHealth
    let logger: Logger

    func run() async throws {
        do {
            try await provider.run()
            if !Task.isShuttingDownGracefully, !Task.isCancelled, ![.finished, .failed].contains(health.snapshot.state)
            {
                health.update(.finished, message: "the provider stopped")
            }
        } catch is CancellationError {
            return
        } catch {
            health.update(.failed, message: "\(error)")
            logger.error("provider '\(provider.id)' failed: \(error); the other providers keep running")
        }
        // Waiting here keeps the service group (and so the service) running without this provider.
        try? await gracefulShutdown()
    }
}
