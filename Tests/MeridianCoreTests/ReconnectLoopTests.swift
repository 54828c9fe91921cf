import Logging
import MeridianCore
import Synchronization
import Testing

/// The reconnect loop counts a failed attempt in the same step as the state that reports it, so that a reader of
/// the provider's health (`GET /v1/providers`) never sees a failure counted while the state still says it is
/// connecting.
@Suite struct ReconnectLoopTests {
    @Test("a failure is counted with the disconnected state, never while the attempt still reads as connecting")
    func failureCountedWithItsState() async {
        let health = ProviderHealth()
        let seen = Mutex<[ProviderHealth.Snapshot]>([])
        let loop = Task {
            var attempts = 0
            await ReconnectLoop.run(
                backoff: Backoff(initial: .milliseconds(1), maximum: .milliseconds(1)), health: health,
                logger: Logger(label: "test"), connectingMessage: "opening /dev/gps",
                retryCounter: "reopens"
            ) {
                attempts += 1
                let record = ConnectionRecord()
                record.close(because: "/dev/gps does not exist", counting: "open_failures")
                // the attempt has failed; the loop has not reported it yet
                seen.withLock { $0.append(health.snapshot) }
                if attempts == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                return record.outcome(otherwise: "closed")
            }
        }
        await loop.value
        let snapshots = seen.withLock { $0 }
        #expect(snapshots.count == 3)
        for (index, snapshot) in snapshots.enumerated() {
            #expect(snapshot.state == .connecting && snapshot.message == "opening /dev/gps")
            #expect(snapshot.counters["open_failures", default: 0] == index, "\(snapshot.counters)")
            #expect(snapshot.counters["reopens"] == index, "\(snapshot.counters)")
        }
    }
}
