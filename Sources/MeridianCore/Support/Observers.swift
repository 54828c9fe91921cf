import Synchronization

/// Callbacks registered by consumers and called, in registration order, with each value a producer hands over.
/// Callbacks run on the producer's task: they must not block.
public final class Observers<Value: Sendable>: Sendable {
    private let callbacks = Mutex<[@Sendable (Value) -> Void]>([])

    public init() {}

    /// Calls `observer` with every value handed over from now on.
    public func observe(_ observer: @escaping @Sendable (Value) -> Void) {
        callbacks.withLock { $0.append(observer) }
    }

    /// Hands `value` to every observer.
    public func notify(_ value: Value) {
        for callback in callbacks.withLock({ $0 }) { callback(value) }
    }
}
