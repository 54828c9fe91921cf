import Foundation
import Synchronization

/// One event on the bus: a name such as `fix`, `flyer.enter` or `run.state`, and a JSON payload.
public struct MeridianEvent: Sendable, Equatable {
    /// Increasing sequence number (the SSE `id`).
    public let sequence: UInt64
    public let name: String
    /// The payload as one line of JSON.
    public let json: String
}

/// What keeps events durably for later delivery (the webhooks' outbox): asked for every published event it wants.
public protocol EventJournal: Sendable {
    /// True when some webhook takes events named `name` (asked on every publish: keep it cheap).
    func wants(_ name: String) -> Bool
    /// Keeps the event `name` with its JSON payload before `publish` returns.
    func record(_ name: String, json: String)
}

/// Broadcasts events to every subscriber. Each subscriber has its own bounded
/// buffer: a slow reader loses its oldest events, never blocks the publisher.
/// With a journal attached, every event it wants is also handed to it (the webhooks' outbox).
public final class EventBus: Sendable {
    private struct State {
        var nextSequence: UInt64 = 1
        var nextSubscriber = 0
        var subscribers: [Int: Subscriber] = [:]
        var journal: (any EventJournal)?
    }

    private struct Subscriber {
        /// The event names it wants (`nil`: all).
        var names: Set<String>?
        var continuation: AsyncStream<MeridianEvent>.Continuation

        func wants(_ name: String) -> Bool { names?.contains(name) ?? true }
    }

    private let state = Mutex(State())

    public init() {}

    /// Publishes `payload` encoded with Meridian's JSON conventions. `journaled`: the writer already put the
    /// event into the outbox in its own transaction (`EventOutbox.append`), so the journal does not keep it again.
    /// Nothing is encoded while nobody wants `name` (fixes are published on every epoch).
    public func publish<Payload: Encodable>(_ name: String, _ payload: Payload, journaled: Bool = false) {
        guard
            state.withLock({ state in
                state.subscribers.values.contains { $0.wants(name) }
                    || (!journaled && state.journal?.wants(name) == true)
            }),
            let json = try? MeridianJSON.string(payload)
        else { return }
        publish(name, json: json, journaled: journaled)
    }

    /// Publishes an already encoded JSON payload (`journaled` as in `publish(_:_:journaled:)`).
    public func publish(_ name: String, json: String, journaled: Bool = false) {
        let journal = state.withLock { state in
            let event = MeridianEvent(sequence: state.nextSequence, name: name, json: json)
            state.nextSequence += 1
            for subscriber in state.subscribers.values where subscriber.wants(name) {
                subscriber.continuation.yield(event)
            }
            return journaled ? nil : state.journal
        }
        if let journal, journal.wants(name) { journal.record(name, json: json) }
    }

    /// Hands every event published from now on that `journal` wants to it (the webhooks' outbox).
    public func attach(journal: any EventJournal) {
        state.withLock { $0.journal = journal }
    }

    /// A stream of every event published from now on (only those named in `names`, when given: a plugin that
    /// follows `run.state` does not make every fix be encoded); ends when the caller stops iterating.
    public func subscribe(buffer: Int = 256, names: Set<String>? = nil) -> AsyncStream<MeridianEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MeridianEvent.self, bufferingPolicy: .bufferingNewest(max(1, buffer)))
        let key = state.withLock { state in
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = Subscriber(names: names, continuation: continuation)
            return key
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Ends every subscription (used at shutdown so SSE responses complete).
    public func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    /// Number of live subscriptions.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
