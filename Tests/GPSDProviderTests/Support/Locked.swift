import Synchronization

/// A shareable, lock-protected value for test scaffolding.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
    var value: Value { storage.withLock { $0 } }
}
