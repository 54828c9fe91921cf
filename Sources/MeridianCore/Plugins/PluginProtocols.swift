import ServiceLifecycle

/// A source of fixes (a serial receiver, gpsd, a file replay…).
///
/// The host runs it as a `Service`: `run()` produces fixes through
/// `ProviderContext.emit(_:)` until graceful shutdown or cancellation, reporting
/// its connection state and counters through `ProviderContext.health`.
public protocol LocationProvider: Service {
    /// The id given in the configuration.
    var id: String { get }
}

/// Something that reacts to the fused fix stream (run tracker, flyer search…).
///
/// The host delivers fixes in order through a bounded buffer of the consumer's
/// own, so a slow consumer never holds up the others. `run()` is for the
/// consumer's own background work; the default just waits for shutdown.
public protocol LocationConsumer: Service {
    /// The id given in the configuration (the type by default).
    var id: String { get }

    /// Handles one fused fix.
    func consume(_ fix: Fix) async
}

extension LocationConsumer {
    /// Waits for graceful shutdown; consumers with background work provide their own `run()`.
    public func run() async throws {
        try? await gracefulShutdown()
    }
}
