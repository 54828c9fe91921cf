import Synchronization

/// An operation that took longer than its deadline.
struct DeadlineExceeded: Error {}

/// Runs `body` in a task of its own and returns its result, or throws `DeadlineExceeded` after `seconds`, whichever
/// comes first; cancelling the caller cancels `body` and throws `CancellationError`.
///
/// The body is cancelled at the deadline but not waited for: a postgres-nio query whose connection the server closed
/// under it can wait for ever and ignore cancellation (seen with a PostgreSQL stopped while the change feed read the
/// change log: the feed, and every write after it, hung). A task group would wait for such a body.
func withDeadline<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await race(body) { try? await Task.sleep(for: .seconds(seconds)) }
}

/// Like `withDeadline(_:_:)`, giving up when one of `wait`'s waits is past its allowance (checked every `interval`
/// seconds). The body is cancelled then and not waited for; a body that must not finish its work after that (a
/// write that would commit) checks for cancellation before it does.
func withDeadline<T: Sendable>(
    _ wait: ServerWait, checkingEvery interval: Double = 0.25, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await race(body) {
        while !Task.isCancelled, !wait.checkOverdue() { try? await Task.sleep(for: .seconds(interval)) }
    }
}

/// `body`'s result, or `DeadlineExceeded` once `deadline` returns first.
private func race<T: Sendable>(
    _ body: @escaping @Sendable () async throws -> T, deadline: @escaping @Sendable () async -> Void
) async throws -> T {
    let race = FirstResult<T>()
    let work = Task {
        do {
            race.finish(.success(try await body()))
        } catch {
            race.finish(.failure(error))
        }
    }
    let timer = Task {
        await deadline()
        if !Task.isCancelled { race.finish(.failure(DeadlineExceeded())) }
    }
    defer {
        timer.cancel()
        work.cancel()
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { race.wait(with: $0) }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of several results, handed to whoever waits for it; later ones are dropped.
private final class FirstResult<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiting: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    /// Resumes `continuation` with the first result, now or once it comes.
    func wait(with continuation: CheckedContinuation<T, any Error>) {
        let ready = state.withLock { state -> Result<T, any Error>? in
            guard let result = state.result else {
                state.waiting = continuation
                return nil
            }
            return result
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Records `result` unless one came first, and resumes the waiter.
    func finish(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: result)
    }
}
