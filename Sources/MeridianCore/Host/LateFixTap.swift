/// Fixes a provider received after newer ones from the same source, such as a phone's offline queue sent after its
/// live points. They never become the current position and are not fused, but a consumer that keeps a history (the
/// run tracker) can put them in their place in time. The host offers it in `Resources` under `LateFixTap.Key`.
public final class LateFixTap: Sendable {
    /// The resource key the host stores the tap under.
    public enum Key: ResourceKey { public typealias Value = LateFixTap }

    private let observers = Observers<[Fix]>()

    public init() {}

    /// Calls `observer` with every batch of late fixes from now on (one source's, in time order, `providerID` set),
    /// on the provider's task: it must not block.
    public func observe(_ observer: @escaping @Sendable ([Fix]) -> Void) {
        observers.observe(observer)
    }

    /// Hands one source's late fixes, in time order, to every observer.
    public func offer(_ fixes: [Fix]) {
        guard !fixes.isEmpty else { return }
        observers.notify(fixes)
    }
}
