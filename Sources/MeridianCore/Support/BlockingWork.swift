import Dispatch
import Foundation

/// Runs blocking work (decoding a file, synchronous database writes) on a dispatch thread, so it never holds one of
/// the few cooperative threads the async runtime has (two on a two-core machine).
public enum BlockingWork {
    /// The result of `work`, run off the cooperative pool.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// The result of `work`, run on a thread of its own: for work of seconds (building an index, checking a
    /// whole database) that must not hold a dispatch worker either, since on Linux the cooperative pool and
    /// the global queues share the same few workers.
    public static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
