import Logging
import MeridianStore
import ServiceLifecycle

/// Checks the store once in the background after `meridian serve` has started (see
/// `Store.checkInBackground`), then waits for shutdown.
struct StoreCheckService: Service {
    let store: Store
    let logger: Logger

    func run() async throws {
        do {
            try await store.checkInBackground(logger: logger)
        } catch {
            logger.critical("store check: \(error)")
        }
        try? await gracefulShutdown()
    }
}
