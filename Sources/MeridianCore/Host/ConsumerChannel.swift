import Synchronization

/// A consumer's own bounded queue of fixes. When the consumer falls behind, the
/// oldest queued fix is dropped (and counted) so the newest always gets through
/// and nobody upstream waits.
public final class ConsumerChannel: Sendable {
    /// Fixes waiting for the consumer, oldest first.
    public let stream: AsyncStream<Fix>
    private let continuation: AsyncStream<Fix>.Continuation
    private let dropped = Atomic<Int>(0)
    private let delivered = Atomic<Int>(0)

    public init(capacity: Int) {
        (stream, continuation) = AsyncStream.makeStream(
            of: Fix.self, bufferingPolicy: .bufferingNewest(max(1, capacity)))
    }

    /// Queues `fix` without waiting; returns false when an older fix had to be dropped.
    @discardableResult
    public func offer(_ fix: Fix) -> Bool {
        switch continuation.yield(fix) {
        case .dropped:
            dropped.add(1, ordering: .relaxed)
            return false
        case .enqueued, .terminated:
            return true
        @unknown default:
            return true
        }
    }

    /// Notes that the consumer has handled one fix.
    public func markDelivered() { delivered.add(1, ordering: .relaxed) }

    /// Ends the stream; the consumer still receives what is queued.
    public func finish() { continuation.finish() }

    /// Fixes dropped because the consumer was behind.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
    /// Fixes the consumer has handled.
    public var deliveredCount: Int { delivered.load(ordering: .relaxed) }
}
