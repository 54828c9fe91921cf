import Logging
import ServiceLifecycle
import Synchronization

/// The connect → serve → wait-with-backoff cycle shared by providers that talk to a
/// device or server which may come and go. Runs until the task is cancelled.
public enum ReconnectLoop {
    /// What one connection attempt ended with.
    public struct Outcome: Sendable {
        /// True when the attempt delivered data, so the next wait starts from the initial delay again.
        public var madeProgress: Bool
        /// Why the connection ended, for the provider's state message and the log.
        public var reason: String
        /// True when the input has ended for good (a replayed file without `loop`): the loop stops and the
        /// provider is reported `finished` with `reason`.
        public var finished: Bool
        /// The counter the loop adds 1 to as it reports `reason` (e.g. `open_failures`), together with the state.
        public var counter: String?

        public init(madeProgress: Bool, reason: String, finished: Bool = false, counter: String? = nil) {
            self.madeProgress = madeProgress
            self.reason = reason
            self.finished = finished
            self.counter = counter
        }
    }

    /// Runs the loop until graceful shutdown (or cancellation), then reports the provider as stopped; a
    /// `finished` outcome ends it earlier, reported as `finished`.
    public static func runUntilShutdown(
        backoff: Backoff, health: ProviderHealth, logger: Logger, connectingMessage: String,
        retryCounter: String, attempt: @escaping @Sendable () async -> Outcome
    ) async {
        await cancelWhenGracefulShutdown {
            await run(
                backoff: backoff, health: health, logger: logger, connectingMessage: connectingMessage,
                retryCounter: retryCounter, attempt: attempt)
        }
        if health.snapshot.state != .finished { health.update(.disconnected, message: "stopped") }
    }

    /// Calls `attempt` until cancelled. Before each attempt the provider is reported as
    /// `connecting` with `connectingMessage` (and `retryCounter` counts every retry); after it,
    /// as `disconnected` with the reason and the delay before the next attempt (counting the outcome's `counter`), or
    /// `finished` when the attempt says the input has ended for good (which ends the loop).
    public static func run(
        backoff: Backoff, health: ProviderHealth, logger: Logger, connectingMessage: String,
        retryCounter: String, attempt: () async -> Outcome
    ) async {
        var backoff = backoff
        var attempts = 0
        health.declare([retryCounter])
        while !Task.isCancelled {
            health.update(.connecting, message: connectingMessage, counting: attempts > 0 ? retryCounter : nil)
            attempts += 1
            let outcome = await attempt()
            if Task.isCancelled { return }
            if outcome.finished {
                health.update(.finished, message: outcome.reason)
                logger.info("\(outcome.reason)")
                return
            }
            if outcome.madeProgress { backoff.reset() }
            let delay = backoff.nextDelay()
            let message = "\(outcome.reason); retrying in \(NumberText.trimmed(delay.seconds, decimals: 3)) s"
            health.update(.disconnected, message: message, counting: outcome.counter)
            logger.warning("\(message)")
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }
}

/// What happened on one connection, recorded from the I/O handlers and read by the provider
/// task when the connection ends; thread-safe.
public final class ConnectionRecord: Sendable {
    private let state = Mutex<(reason: String?, madeProgress: Bool, counter: String?)>((nil, false, nil))

    public init() {}

    /// Records why the connection ends, and the counter the loop adds 1 to as it reports it; the first reason given wins.
    public func close(because reason: String, counting counter: String? = nil) {
        state.withLock {
            guard $0.reason == nil else { return }
            $0.reason = reason
            $0.counter = counter
        }
    }

    /// Records that the connection delivered data.
    public func noteProgress() {
        state.withLock { $0.madeProgress = true }
    }

    /// The loop's view of the connection; `fallback` is the reason when none was recorded.
    public func outcome(otherwise fallback: String) -> ReconnectLoop.Outcome {
        state.withLock {
            ReconnectLoop.Outcome(madeProgress: $0.madeProgress, reason: $0.reason ?? fallback, counter: $0.counter)
        }
    }
}
