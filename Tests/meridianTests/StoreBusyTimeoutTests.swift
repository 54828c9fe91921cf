import Foundation
import MeridianTesting
import Testing

/// `store.busy_timeout` is how long a write of `meridian serve` waits while another process holds the write lock.
@Suite("store.busy_timeout under meridian serve")
struct StoreBusyTimeoutTests {
    /// Another process (Python's sqlite3) that holds the write lock of `path` for `seconds`, then commits.
    static func holdWriteLock(_ path: String, seconds: Double) async throws -> ManagedProcess {
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute('COMMIT')
            print('released', flush=True)
            """
        let process = try ManagedProcess("python3", ["-c", script, path, "\(seconds)"])
        try await ManagedProcess.waitUntil(timeout: 10, "the other process to hold the write lock") {
            process.output().contains("locked")
        }
        return process
    }

    @Test(
        "with busy_timeout 30, a flyer posted while another process holds the write lock for 6.5 s is written once it lets go"
    )
    func waitsTheConfiguredTime() async throws {
        // SpatiaLite sets a connection's busy timeout to 5 s when it loads; a lock held longer than that tells
        // the configured 30 s from SpatiaLite's 5 s without timing anything.
        let served = try await ServedInstance { _ in
            "http:\n  port: 0\nstore:\n  path: meridian.sqlite\n  busy_timeout: 30\nproviders: []\nconsumers:\n  - type: flyers\n"
        }
        defer { served.stop() }
        let holder = try await Self.holdWriteLock(
            served.directory.appendingPathComponent("meridian.sqlite").path, seconds: 6.5)
        defer { holder.stop() }
        let feature =
            #"{"type":"Feature","properties":{"id":"held","title":"Held"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        let answer = try await served.client.request("POST", "/v1/flyers", body: Data(feature.utf8), timeout: 40)
        #expect(answer.status == 201, "\(answer.text)")
        #expect(
            holder.output().contains("released"), "the write went through while the lock was held: \(holder.output())")
        #expect(try await served.client.request("GET", "/v1/flyers/held").status == 200)
    }
}
