import Synchronization

/// The waits on PostgreSQL of an operation that holds one connection for a long time (a write streamed with `COPY`):
/// each may last its allowance, and `withDeadline(_:checkingEvery:_:)` gives up on the operation once one is past it.
/// Time spent on anything else (reading the input) does not count, so a slow input never ends a write, and a server
/// that stops answering (a frozen process, a lost network) always does.
final class ServerWait: Sendable {
    private struct State {
        /// When the current wait must end; nil between waits.
        var deadline: ContinuousClock.Instant?
        var allowance: Double = 0
        /// The allowance of the wait that passed its deadline.
        var overdue: Double?
    }

    private let state = Mutex(State())

    /// Waits `seconds` at most for what `body` asks of the server. Inside another wait, it restarts that one's
    /// allowance when it ends (progress is progress).
    @discardableResult
    nonisolated(nonsending) func server<T>(allowing seconds: Double, _ body: () async throws -> T) async throws -> T {
        let outer = state.withLock { state -> Double? in
            defer {
                state.deadline = .now + .seconds(seconds)
                state.allowance = seconds
            }
            return state.deadline == nil ? nil : state.allowance
        }
        defer { resume(outer) }
        return try await body()
    }

    /// Runs `body`, work of this process (reading the input), with the current wait's clock stopped; it restarts
    /// with its whole allowance after.
    nonisolated(nonsending) func local<T>(_ body: () async throws -> T) async throws -> T {
        let outer = state.withLock { state -> Double? in
            defer { state.deadline = nil }
            return state.deadline == nil ? nil : state.allowance
        }
        defer { resume(outer) }
        return try await body()
    }

    /// The allowance of the wait that passed its deadline, if one did (recorded by `checkOverdue`).
    var overdue: Double? { state.withLock { $0.overdue } }

    /// True, recording it, when the current wait is past its deadline.
    func checkOverdue() -> Bool {
        state.withLock { state in
            guard let deadline = state.deadline, ContinuousClock.now >= deadline else { return false }
            state.overdue = state.allowance
            return true
        }
    }

    /// Restarts the wait whose allowance is `allowance` (none when nil).
    private func resume(_ allowance: Double?) {
        state.withLock { state in
            state.deadline = allowance.map { .now + .seconds($0) }
            if let allowance { state.allowance = allowance }
        }
    }
}
