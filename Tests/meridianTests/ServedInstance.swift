import Foundation
import MeridianTesting

/// `meridian serve` on the shipped default configuration, on a free port and a temporary database.
final class ServedInstance {
    let process: ManagedProcess
    let client: HTTPTestClient
    let directory: URL

    /// `http` holds extra lines for the `http:` section (e.g. `idle_timeout: 1`), one key per line.
    init(extraEnvironment: [String: String] = [:], http: [String] = []) async throws {
        directory = try TestData.temporaryDirectory()
        let port = try FreePort.next()
        let yaml = try String(contentsOf: TestData.repositoryRoot.appendingPathComponent("Config/meridian.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "port: 8080", with: (["port: \(port)"] + http).joined(separator: "\n  "))
        let config = directory.appendingPathComponent("meridian.yaml")
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["MERIDIAN_DB"] = directory.appendingPathComponent("meridian.sqlite").path
        environment.merge(extraEnvironment) { $1 }
        process = try ManagedProcess(MeridianBinary.path, ["serve", "--config", config.path],
                                     environment: environment, currentDirectory: TestData.repositoryRoot)
        client = HTTPTestClient(port: port)
        let process = self.process
        try await ManagedProcess.waitUntil(timeout: 30, "meridian serve to listen") {
            guard process.isRunning else { throw TestSupportError("meridian serve exited: \(process.output())") }
            return process.output().contains("listening on")
        }
    }

    /// Waits until `/v1/position` has a fix (the sample replay runs in real time).
    func waitForPosition() async throws {
        for _ in 0..<100 {
            if try await client.request("GET", "/v1/position").status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSupportError("no position after 10 s: \(process.output())")
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
