import Foundation
import MeridianTesting

/// `meridian serve` on a configuration in a temporary folder, on a free port and a temporary database.
final class ServedInstance {
    let process: ManagedProcess
    let client: HTTPTestClient
    let directory: URL

    /// The shipped default configuration. `http` holds extra lines for the `http:` section (e.g. `idle_timeout: 1`),
    /// one key per line.
    convenience init(extraEnvironment: [String: String] = [:], http: [String] = []) async throws {
        // The copy lives elsewhere, so its relative sample path is made absolute.
        let samples = TestData.repositoryRoot.appendingPathComponent("Config/samples").path
        let shipped = try String(contentsOf: TestData.repositoryRoot.appendingPathComponent("Config/meridian.yaml"), encoding: .utf8)
        try await self.init(extraEnvironment: extraEnvironment) { port, _ in
            shipped.replacingOccurrences(of: "port: 8080", with: (["port: \(port)"] + http).joined(separator: "\n  "))
                .replacingOccurrences(of: "file: samples/", with: "file: \(samples)/")
        }
    }

    /// The configuration `yaml` makes from the port and the temporary folder (which holds the configuration file,
    /// and the database unless `MERIDIAN_DB` is given), served from `currentDirectory`.
    init(extraEnvironment: [String: String] = [:], currentDirectory: URL = TestData.repositoryRoot,
         yaml: (Int, URL) throws -> String) async throws {
        directory = try TestData.temporaryDirectory()
        let port = try FreePort.next()
        let config = directory.appendingPathComponent("meridian.yaml")
        try yaml(port, directory).write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["MERIDIAN_DB"] = directory.appendingPathComponent("meridian.sqlite").path
        environment.merge(extraEnvironment) { $1 }
        process = try ManagedProcess(MeridianBinary.path, ["serve", "--config", config.path],
                                     environment: environment, currentDirectory: currentDirectory)
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

    /// The entry of provider `id` in `/v1/providers`.
    func provider(_ id: String) async throws -> [String: Any]? {
        let providers = try await client.request("GET", "/v1/providers").json()["providers"] as? [[String: Any]]
        return providers?.first { $0["id"] as? String == id }
    }

    /// Waits until provider `id` reports `state` (up to 20 s) and returns its entry.
    @discardableResult
    func waitForProvider(_ id: String, state: String) async throws -> [String: Any] {
        var last: [String: Any]?
        for _ in 0..<200 {
            last = try await provider(id)
            if let last, last["state"] as? String == state { return last }
            guard process.isRunning else { throw TestSupportError("meridian serve exited: \(process.output())") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSupportError("provider \(id) did not reach \(state) within 20 s (last: \(String(describing: last))): \(process.output())")
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
