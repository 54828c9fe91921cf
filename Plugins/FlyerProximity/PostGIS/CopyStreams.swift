import Synchronization

/// The writes streaming rows with `COPY` through a store's connections. postgres-nio must never be asked to close a
/// connection in the middle of a `COPY`: that stops the process (a failed precondition of its connection's state
/// machine, in release builds too). So closing the store first refuses new batches (`checkOpen`), then waits for the
/// streams to end (`end(within:)`), and closes the connections only when none is left.
final class CopyStreams: Sendable {
    private struct State {
        var streaming = 0
        var closing = false
    }

    private let state = Mutex(State())

    /// Runs `body`, a `COPY` from its start to its end; refused once the store is closing.
    nonisolated(nonsending) func stream<T>(_ body: () async throws -> T) async throws -> T {
        try state.withLock { state throws(FlyerStoreError) in
            guard !state.closing else { throw Self.closing }
            state.streaming += 1
        }
        defer { state.withLock { $0.streaming -= 1 } }
        return try await body()
    }

    /// Throws once the store is closing: a stream checks before each batch it sends, and fails (rolls back) then.
    func checkOpen() throws(FlyerStoreError) {
        if state.withLock({ $0.closing }) { throw Self.closing }
    }

    /// Refuses new batches and waits until no stream is left, at most `seconds` (nil: as long as it takes); false when
    /// one still is.
    func end(within seconds: Double?) async -> Bool {
        state.withLock { $0.closing = true }
        let deadline = seconds.map { ContinuousClock.now + .seconds($0) }
        while state.withLock({ $0.streaming > 0 }) {
            if let deadline, ContinuousClock.now >= deadline { return false }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return false }
        }
        return true
    }

    private static let closing = FlyerStoreError.unavailable(
        "the flyer store is closing (the service is stopping); the write was rolled back; write again once it runs")
}
