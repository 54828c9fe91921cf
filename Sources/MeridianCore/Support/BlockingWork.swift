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
    /// the global queues share the same few workers. With `lowPriority` the thread runs niced (Linux nice 10),
    /// so that work done in the background (checks after start) gives way to answering requests.
    public static func onOwnThread<T: Sendable>(lowPriority: Bool = false, _ work: @escaping @Sendable () -> T) async
        -> T
    {
        await withCheckedContinuation { continuation in
            Thread {
                #if os(Linux)
                    // On Linux the nice value is per thread, and 0 names the calling thread.
                    if lowPriority { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
                #endif
                continuation.resume(returning: work())
            }.start()
        }
    }
}
