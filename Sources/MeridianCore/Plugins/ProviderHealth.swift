import Foundation
import Synchronization

/// What a provider is doing right now, as shown by `GET /v1/providers`.
public enum ProviderState: String, Sendable, Codable {
    /// Not started yet.
    case starting
    /// Opening its device or connection.
    case connecting
    /// Receiving data.
    case connected
    /// Lost its device or connection; retrying with backoff.
    case disconnected
    /// Reached the end of its input (a replay without `loop`).
    case finished
    /// Gave up after an error it cannot recover from.
    case failed
}

/// A provider's self-reported state and counters; thread-safe.
public final class ProviderHealth: Sendable {
    /// A consistent copy of the state.
    public struct Snapshot: Sendable, Equatable {
        public var state: ProviderState
        /// Human-readable detail, e.g. why the device could not be opened.
        public var message: String?
        /// When `state` last changed.
        public var since: Date
        /// Named counters, e.g. `sentences`, `bad_checksum`, `reconnects`.
        public var counters: [String: Int]
    }

    private let storage: Mutex<Snapshot>

    public init() {
        storage = Mutex(Snapshot(state: .starting, message: nil, since: Date(), counters: [:]))
    }

    /// Records a state change (the timestamp only moves when the state changes).
    public func update(_ state: ProviderState, message: String? = nil) {
        update(state, message: message, counting: nil)
    }

    /// Records a state change, adding 1 to counter `counting` in the same step, so that no snapshot shows the count
    /// without the state that explains it.
    public func update(_ state: ProviderState, message: String?, counting: String?) {
        storage.withLock { snapshot in
            if snapshot.state != state { snapshot.since = Date() }
            snapshot.state = state
            snapshot.message = message
            if let counting { snapshot.counters[counting, default: 0] += 1 }
        }
    }

    /// Adds `amount` to counter `name`.
    public func count(_ name: String, by amount: Int = 1) {
        storage.withLock { $0.counters[name, default: 0] += amount }
    }

    /// Lists `names` at 0 until they are counted, so that every counter a provider documents shows from its start.
    public func declare(_ names: some Sequence<String>) {
        storage.withLock { snapshot in
            for name in names where snapshot.counters[name] == nil { snapshot.counters[name] = 0 }
        }
    }

    /// Replaces the listed counters with absolute values.
    public func setCounters(_ values: [String: Int]) {
        storage.withLock { snapshot in
            for (name, value) in values { snapshot.counters[name] = value }
        }
    }

    /// The current state and counters.
    public var snapshot: Snapshot { storage.withLock { $0 } }
}
