import Foundation
import Synchronization
import Testing

@testable import FlyerProximity

/// `withDeadline` answers by its deadline even when the work ignores cancellation (as a postgres-nio query whose
/// connection was closed under it does), and never later than the work when the work is quick.
@Suite("Deadlines: PostGIS operations give up on time, whatever the work does")
struct DeadlineTests {
    /// Work that waits until `release()` and ignores cancellation meanwhile.
    final class StuckWork: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let released = Mutex(false)

        func run() async {
            await withCheckedContinuation { continuation in
                let resumeNow = released.withLock { released in
                    if !released { waiting.withLock { $0 = continuation } }
                    return released
                }
                if resumeNow { continuation.resume() }
            }
        }

        func release() {
            released.withLock { $0 = true }
            waiting.withLock { $0.take() }?.resume()
        }
    }

    @Test(
        "work that ignores cancellation: DeadlineExceeded at the deadline, not when the work ends",
        .timeLimit(.minutes(1)))
    func stuckWork() async throws {
        let stuck = StuckWork()
        defer { stuck.release() }
        let started = ContinuousClock.now
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(0.2) {
                await stuck.run()
                return 1
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("quick work: its result, or its error")
    func quickWork() async throws {
        #expect(try await withDeadline(30) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await withDeadline(30) { () async throws -> Int in throw Refused() } }
    }

    @Test("a cancelled caller stops waiting for stuck work", .timeLimit(.minutes(1)))
    func cancelledCaller() async throws {
        let stuck = StuckWork()
        defer { stuck.release() }
        let caller = Task {
            try await withDeadline(600) {
                await stuck.run()
                return 1
            }
        }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
    }
}
