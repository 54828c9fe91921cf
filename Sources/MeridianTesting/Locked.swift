import Synchronization

/// A shareable, lock-protected value for test scaffolding.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) { storage = Mutex(value) }

    /// Runs `body` with exclusive access to the value.
    public func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }

    /// A copy of the value.
    public var value: Value { storage.withLock { $0 } }
}
