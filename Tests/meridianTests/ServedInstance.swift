import Foundation
import MeridianTesting

/// `meridian serve` on a configuration in a temporary folder, on a port the kernel chooses and a temporary database.
final class ServedInstance {
    let process: ManagedProcess
    /// A client with the service's token (the bearer header), when it has one.
    let client: HTTPTestClient
    let directory: URL
    /// The token `meridian serve` made on its first start (from its sign-in link), when the configuration names none.
    let token: String?

    /// The shipped default configuration. `http` holds extra lines for the `http:` section (e.g. `idle_timeout: 1`),
    /// one key per line.
    convenience init(extraEnvironment: [String: String] = [:], http: [String] = []) async throws {
        // The copy lives elsewhere, so its relative sample path is made absolute.
        let samples = TestData.repositoryRoot.appendingPathComponent("Config/samples").path
        let shipped = try String(
            contentsOf: TestData.repositoryRoot.appendingPathComponent("Config/meridian.yaml"), encoding: .utf8)
        try await self.init(extraEnvironment: extraEnvironment) { _ in
            shipped.replacingOccurrences(of: "port: 8080", with: (["port: 0"] + http).joined(separator: "\n  "))
                .replacingOccurrences(of: "file: samples/", with: "file: \(samples)/")
        }
    }

    /// The configuration `yaml` makes from the temporary folder (which holds the configuration file, and the database
    /// unless `MERIDIAN_DB` is given), served from `currentDirectory`. With `http.port: 0` the kernel chooses the port,
    /// read back from the service's log.
    init(
        extraEnvironment: [String: String] = [:], currentDirectory: URL = TestData.repositoryRoot,
        yaml: (URL) throws -> String
    ) async throws {
        directory = try TestData.temporaryDirectory()
        let config = directory.appendingPathComponent("meridian.yaml")
        try yaml(directory).write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["MERIDIAN_DB"] = directory.appendingPathComponent("meridian.sqlite").path
        environment.merge(extraEnvironment) { $1 }
        let (process, port) = try await MeridianBinary.serve(
            config: config.path, environment: environment, in: currentDirectory,
            timeout: 30)
        self.process = process
        token = Self.signInToken(in: process.output())
        client = HTTPTestClient(port: port, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// The token's header line for requests written by hand (`Authorization: Bearer …\r\n`), or nothing.
    var authorization: String {
        token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
    }

    /// A client of the `meridian serve` whose log is `output`, on its port and with its token.
    static func client(from output: String) throws -> HTTPTestClient {
        guard let port = MeridianBinary.listeningPort(in: output) else {
            throw TestSupportError("no listening port in: \(output)")
        }
        return HTTPTestClient(
            port: port, headers: signInToken(in: output).map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// The token of the sign-in link `meridian serve` logs before "listening on" (`sign in: http://…/?token=… (…)`).
    static func signInToken(in output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("sign in: ") }),
            let start = line.range(of: "?token=")?.upperBound
        else { return nil }
        return String(line[start...].prefix { !$0.isWhitespace })
    }

    /// Waits until `/v1/position` has a fix (the sample replay runs in real time).
    func waitForPosition() async throws {
        let (client, process) = (self.client, self.process)
        try await ManagedProcess.waitUntil(timeout: 10, "a position on /v1/position") {
            guard process.isRunning else { throw TestSupportError("meridian serve exited: \(process.output())") }
            return try await client.request("GET", "/v1/position").status == 200
        }
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
        let process = self.process
        try await ManagedProcess.waitUntil(timeout: 20, "provider \(id) to reach \(state)") {
            guard process.isRunning else { throw TestSupportError("meridian serve exited: \(process.output())") }
            last = try await provider(id)
            return last?["state"] as? String == state
        }
        return last ?? [:]
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
