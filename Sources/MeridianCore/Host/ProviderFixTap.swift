/// Every provider's own fixes, before fusion, for consumers that serve one provider's stream (the gpsd server's
/// `?WATCH={"device":…}`). The host offers it in `Resources` under `ProviderFixTap.Key`.
public final class ProviderFixTap: Sendable {
    /// The resource key the host stores the tap under.
    public enum Key: ResourceKey { public typealias Value = ProviderFixTap }

    /// One configured provider.
    public struct Provider: Sendable, Equatable {
        public var id: String
        public var type: String

        public init(id: String, type: String) {
            self.id = id
            self.type = type
        }
    }

    /// The configured providers, in configuration order.
    public let providers: [Provider]
    private let observers = Observers<Fix>()

    public init(providers: [Provider]) {
        self.providers = providers
    }

    /// Calls `observer` with every fix any provider sends from now on (`providerID` set), on the provider's task:
    /// it must not block.
    public func observe(_ observer: @escaping @Sendable (Fix) -> Void) {
        observers.observe(observer)
    }

    /// Hands `fix` to every observer.
    func offer(_ fix: Fix) {
        observers.notify(fix)
    }
}
