import Synchronization

/// The NMEA sentences providers receive from their receivers, as they came, for consumers that pass them on (the gpsd
/// server's `"nmea":true` stream sends a receiver's own sentences rather than ones made from its fixes). The host
/// offers it in `Resources` under `SentenceTap.Key`.
public final class SentenceTap: Sendable {
    /// The resource key the host stores the tap under.
    public enum Key: ResourceKey { public typealias Value = SentenceTap }

    /// One sentence with a valid checksum, without its line ending, and the provider that received it.
    public struct Sentence: Sendable, Equatable {
        public var providerID: String
        public var text: String

        public init(providerID: String, text: String) {
            self.providerID = providerID
            self.text = text
        }
    }

    private let observers = Observers<Sentence>()
    private let listening = Atomic<Bool>(false)

    public init() {}

    /// Whether anyone observes: a provider skips the work of handing sentences on while nobody does.
    public var isObserved: Bool { listening.load(ordering: .relaxed) }

    /// Calls `observer` with every sentence any provider hands on from now on, on the provider's task: it must not
    /// block.
    public func observe(_ observer: @escaping @Sendable (Sentence) -> Void) {
        observers.observe(observer)
        listening.store(true, ordering: .relaxed)
    }

    /// Hands one received sentence to every observer.
    public func offer(_ sentence: Sentence) {
        observers.notify(sentence)
    }
}
