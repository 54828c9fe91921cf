import MeridianCore
import ServiceLifecycle
import Synchronization

/// Tells a request's long blocking work (an import) that nobody wants its answer any more: the client went
/// away (closed its connection, or its sending side), the service is stopping (SIGTERM), or the request's task
/// was cancelled. The work asks ``isCancelled`` now and then and stops early.
public final class RequestCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// True once the answer is no longer wanted.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    public init() {}

    private func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs `work` off the cooperative threads (`BlockingWork`); this cancellation turns true when the client
    /// of `context`'s request goes away, when the service begins to stop, or when the calling task is cancelled.
    public func run<T: Sendable>(for context: MeridianRequestContext, _ work: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        ConnectionGuard.whenClientGone(on: context.channel) { self.cancel() }
        return try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await BlockingWork.run(work)
            } onCancel: {
                self.cancel()
            }
        } onGracefulShutdown: {
            self.cancel()
        }
    }
}
