import Synchronization

/// A key for a shared resource, such as the store or a lookup one plugin offers another.
public protocol ResourceKey {
    associatedtype Value: Sendable
}

/// Typed shared resources handed to every plugin (the store, cross-plugin lookups).
///
/// The core knows nothing about the values; the modules that define a key also
/// define convenient accessors for it.
public final class Resources: Sendable {
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    /// The value stored under `key`, if any.
    public subscript<Key: ResourceKey>(_ key: Key.Type) -> Key.Value? {
        get { values.withLock { $0[ObjectIdentifier(key)] as? Key.Value } }
        set { values.withLock { $0[ObjectIdentifier(key)] = newValue } }
    }
}
