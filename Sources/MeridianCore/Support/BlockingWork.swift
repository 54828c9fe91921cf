import Dispatch

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
}
