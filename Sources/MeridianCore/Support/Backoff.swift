/// Reconnection delays that start at `initial` and double up to `maximum`
/// (1 s, 2 s, 4 s … 30 s by default); `reset()` after a successful connection.
public struct Backoff: Sendable, Equatable {
    public let initial: Duration
    public let maximum: Duration
    private var next: Duration

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
        self.next = initial
    }

    /// The delay to wait now; the following one is twice as long, capped at `maximum`.
    public mutating func nextDelay() -> Duration {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    /// Starts again from `initial`.
    public mutating func reset() {
        next = initial
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product &+ attoseconds / 1_000_000_000
    }
}
