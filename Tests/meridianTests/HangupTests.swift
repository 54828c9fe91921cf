import Foundation
import MeridianTesting
import Testing

/// SIGHUP reloads what `meridian serve` can change while it runs (the log level) and logs it; it never stops the service.
@Suite("SIGHUP")
struct HangupTests {
    @Test("SIGHUP reloads the log level, says so, and the service still answers /health")
    func hangupReloadsLogging() async throws {
        let served = try await ServedInstance { _ in "http:\n  port: 0\nlog_level: info\n" }
        defer { served.stop() }
        let config = served.directory.appendingPathComponent("meridian.yaml")
        try "http:\n  port: \(served.client.port)\nlog_level: warning\n".write(
            to: config, atomically: true, encoding: .utf8)
        served.process.send(SIGHUP)
        try await ManagedProcess.waitUntil(timeout: 20, "the reload to be logged") {
            guard served.process.isRunning else {
                throw TestSupportError("meridian serve exited on SIGHUP: \(served.process.output())")
            }
            return served.process.output().contains("SIGHUP: reloaded logging")
        }
        #expect(served.process.output().contains("log level info → warning"), "\(served.process.output())")
        #expect(try await served.client.request("GET", "/health").status == 200)

        // Under `warning` a reload is still said.
        served.process.send(SIGHUP)
        try await ManagedProcess.waitUntil(timeout: 20, "the second reload to be logged") {
            served.process.output().contains("log level warning (unchanged)")
        }

        // A file that no longer loads changes nothing and is said; the service keeps running.
        try "http:\n  port: [\n".write(to: config, atomically: true, encoding: .utf8)
        served.process.send(SIGHUP)
        try await ManagedProcess.waitUntil(timeout: 20, "the failed reload to be logged") {
            served.process.output().contains("was not reloaded")
        }
        #expect(served.process.isRunning)
        #expect(try await served.client.request("GET", "/health").status == 200)
    }
}
