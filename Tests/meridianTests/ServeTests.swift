import Foundation
import MeridianTesting
import Testing

@Suite("meridian serve")
struct ServeTests {
    @Test("the default configuration serves /health, shows live fixes and stops cleanly on SIGTERM")
    func defaultConfig() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        let health = try await served.client.request("GET", "/health")
        #expect(health.status == 200)
        // The bundled sample run is replayed in real time: a position appears within a few seconds.
        try await served.waitForPosition()
        served.process.send(SIGTERM)
        try await ManagedProcess.waitUntil(timeout: 15, "meridian to exit after SIGTERM") { !served.process.isRunning }
        #expect(served.process.exitStatus == 0, "\(served.process.output())")
        #expect(served.process.output().contains("Meridian stopped"))
    }

    @Test("a bad configuration stops serve with exit code 2 before binding anything")
    func badConfig() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("m.yaml")
        try "http:\n  host: 0.0.0.0\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try MeridianBinary.run(["serve", "--config", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("http.host") && result.stderr.contains("token"))
    }
}
