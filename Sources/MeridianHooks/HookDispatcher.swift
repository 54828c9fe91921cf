import Foundation
import GRDB
import Logging
import MeridianCore
import MeridianHTTP
import MeridianStore
import ServiceLifecycle
import Synchronization

/// Delivers the outbox (`EventOutbox`) to the hooks: one task per hook, so a slow or stalled receiver holds up only
/// its own hook. Each hook gets its events in order, at least once: an event leaves its line when the receiver
/// answered 2xx, else it is tried again after an exponential backoff with jitter until `max_age`, then moves to the
/// dead-letter list. As the bus's journal, it appends every published event a hook takes before `publish` returns;
/// when the store refuses the write (a full disk), the event is held in memory, in order, and appended as soon as the
/// store takes writes again. It also notices hooks and retries that another process (`meridian hooks …`) stored.
public final class HookDispatcher: Service, EventJournal, Sendable {
    private struct State {
        var hooks: [HookSpec]
        var held: [(name: String, json: String, time: Date)] = []
        var wakes: [String: AsyncStream<Void>.Continuation] = [:]
    }

    private let store: Store
    private let logger: Logger
    private let state: Mutex<State>
    /// How often the outbox is read again without being woken (rows other processes wrote, retry times).
    static let pollInterval = Duration.seconds(1)
    /// Deliveries read at once for one hook.
    static let batch = 64

    /// Puts the configuration's `hooks` into the store (replacing the ones of an earlier configuration); a store
    /// that already holds them is only read, so a start on a store that refuses writes (damage found, a check still
    /// running) goes on.
    public init(store: Store, configured: [HookSpec], logger: Logger) throws {
        self.store = store
        self.logger = logger
        let stored = try store.database.read { db in
            try HookTable.isSynchronised(configured, in: db) ? try HookTable.specs(db) : nil
        }
        let hooks =
            try stored
            ?? store.database.write { db in
                try HookTable.syncConfiguration(configured, in: db)
                return try HookTable.specs(db)
            }
        state = Mutex(State(hooks: hooks))
    }

    public func wants(_ name: String) -> Bool {
        state.withLock { state in state.hooks.contains { EventPattern.matches(name, $0.events) } }
    }

    public func record(_ name: String, json: String) {
        let now = Date()
        let holding = state.withLock { state in
            guard !state.held.isEmpty else { return false }
            state.held.append((name, json, now))
            return true
        }
        guard !holding else { return }
        do {
            if try store.database.write({ db in try EventOutbox.append(name, json: json, in: db, at: now) }) != nil {
                wakeAll()
            }
        } catch {
            logger.warning(
                "hooks: the store refused the event \(name) (\(error)); it is held in memory and stored when the store takes writes again"
            )
            state.withLock { $0.held.append((name, json, now)) }
        }
    }

    /// Appends `hook.ping` for hook `id` alone (a test of its receiver); returns the event id.
    public func ping(_ id: String) throws -> String? {
        let id = try store.database.write { db -> String? in
            guard let hook = try HookTable.specs(db).first(where: { $0.id == id }) else { return nil }
            let payload = #"{"hook_id":\#(try MeridianJSON.string(hook.id))}"#
            return try EventOutbox.append("hook.ping", json: payload, in: db, for: [hook])
        }
        wakeAll()
        return id
    }

    /// Makes every hook's task read the outbox now (after a retry or a change of hooks).
    public func wakeAll() {
        for wake in state.withLock({ Array($0.wakes.values) }) { wake.yield() }
    }

    /// `/v1/hooks` on this dispatcher's store.
    public var routes: any HTTPRoutes { HookRoutes(dispatcher: self, store: store) }

    /// Events held in memory while the store refuses writes.
    public var heldCount: Int { state.withLock { $0.held.count } }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.supervise() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Keeps one task per hook (started, restarted when its definition changed, stopped when it was removed),
    /// stores held events, and wakes every task once per `pollInterval`.
    private func supervise() async {
        var workers: [String: (spec: HookSpec, task: Task<Void, Never>)] = [:]
        while !Task.isCancelled {
            storeHeld()
            let hooks = (try? await store.database.read { db in try HookTable.specs(db) }) ?? state.withLock(\.hooks)
            state.withLock { $0.hooks = hooks }
            for (id, worker) in workers where !hooks.contains(worker.spec) {
                worker.task.cancel()
                workers[id] = nil
                _ = state.withLock { $0.wakes.removeValue(forKey: id) }
            }
            for hook in hooks where workers[hook.id] == nil {
                let (wake, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                state.withLock { $0.wakes[hook.id] = continuation }
                workers[hook.id] = (hook, Task { await self.deliver(to: hook, wake: wake, waker: continuation) })
            }
            wakeAll()
            try? await Task.sleep(for: Self.pollInterval)
        }
        for worker in workers.values { worker.task.cancel() }
        for worker in workers.values { await worker.task.value }
    }

    private func storeHeld() {
        let held = state.withLock(\.held)
        guard !held.isEmpty else { return }
        do {
            try store.database.write { db in
                for event in held { try EventOutbox.append(event.name, json: event.json, in: db, at: event.time) }
            }
            state.withLock { $0.held.removeFirst(min(held.count, $0.held.count)) }
            logger.notice("hooks: \(held.count) events held in memory are stored in the outbox")
        } catch {
            logger.debug("hooks: the store still refuses writes (\(error)); \(held.count) events held")
        }
    }

    /// Delivers hook `hook`'s line in order until cancelled, waiting on `wake` while there is nothing to send.
    private func deliver(to hook: HookSpec, wake: AsyncStream<Void>, waker: AsyncStream<Void>.Continuation) async {
        guard let endpoint = HTTPEndpoint(url: hook.url) else { return }
        let client = HookClient(endpoint: endpoint, timeout: hook.timeout, caFile: hook.caFile)
        defer { client.close() }
        var wakes = wake.makeAsyncIterator()
        var failing = false
        while !Task.isCancelled {
            let line =
                (try? await store.database.read { db in
                    try HookDeliveries.pending(hookID: hook.id, limit: Self.batch, in: db)
                }) ?? []
            let now = Date()
            if let first = line.first, first.nextAttempt > now {
                let wait = first.nextAttempt.timeIntervalSince(now)
                if wait < 1 {
                    Task {
                        try? await Task.sleep(for: .milliseconds(Int(wait * 1000) + 1))
                        waker.yield()
                    }
                }
            }
            guard let first = line.first, first.nextAttempt <= now else {
                guard await wakes.next() != nil else { return }
                continue
            }
            var delivered: [Int64] = []
            var failure: (HookDeliveries.Pending, String)?
            for delivery in line where !Task.isCancelled {
                let message = HookMessage(delivery, secret: hook.secret)
                do {
                    try await client.post(message.body, headers: message.headers)
                    delivered.append(delivery.sequence)
                } catch {
                    failure = (delivery, "\(error)")
                    break
                }
            }
            await record(hook, delivered: delivered, failure: failure)
            if failure == nil && failing { logger.info("hook \(hook.id): \(hook.url) takes events again") }
            failing = failure != nil
        }
    }

    /// Stores the outcome of one pass over a hook's line: what arrived, and the attempt that failed.
    private func record(_ hook: HookSpec, delivered: [Int64], failure: (HookDeliveries.Pending, String)?) async {
        let delay = failure.map { Self.delay(after: $0.0.attempts + 1, hook: hook) } ?? 0
        do {
            let dead = try await store.database.write { db -> Bool in
                try HookDeliveries.delivered(hookID: hook.id, sequences: delivered, in: db)
                guard let (delivery, error) = failure else { return false }
                return try HookDeliveries.failed(delivery, hook: hook, error: error, delay: delay, in: db)
            }
            if let (delivery, error) = failure {
                if dead {
                    logger.warning(
                        "hook \(hook.id): event \(delivery.eventID) (\(delivery.type)) moved to the dead-letter list after \(delivery.attempts + 1) attempts over max_age \(hook.maxAge) s: \(error); `meridian hooks retry` sends it again"
                    )
                } else if delivery.attempts == 0 {
                    logger.notice("hook \(hook.id): \(hook.url): \(error); retrying with backoff")
                }
            }
        } catch {
            // Delivered events stay in the line and are sent again (at least once), with the same ids.
            logger.warning("hooks: cannot record deliveries of hook \(hook.id): \(error)")
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// The wait before attempt `attempts + 1`: `backoff` doubling per attempt up to `backoff_max`, the second half
    /// of it random (so that many events or hooks do not retry in step).
    static func delay(after attempts: Int, hook: HookSpec) -> Double {
        let full = min(hook.backoffMax, hook.backoff * pow(2, Double(min(attempts - 1, 40))))
        return full / 2 + Double.random(in: 0...(full / 2))
    }
}
