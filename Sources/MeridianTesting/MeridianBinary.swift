import Foundation

/// The `meridian` executable that `swift build --build-tests` links beside the test bundle, for tests that run the
/// real binary. Its path is refused while the binary is missing or older than a module it is linked from, so a test
/// never runs a binary that predates the code under test.
public enum MeridianBinary {
    /// `.build/<configuration>/meridian`, checked once per test run.
    public static var path: String {
        get throws(TestSupportError) { try located.get() }
    }

    private static let located: Swift.Result<String, TestSupportError> = {
        let running = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let folder =
            FileManager.default.isExecutableFile(atPath: running.appendingPathComponent("meridian").path)
            ? running : TestData.repositoryRoot.appendingPathComponent(".build/debug")
        return locate(in: folder)
    }()

    /// `folder/meridian`, unless it is missing or older than an object file it is linked from.
    static func locate(in folder: URL) -> Swift.Result<String, TestSupportError> {
        let binary = folder.appendingPathComponent("meridian")
        guard let built = modified(binary) else {
            return .failure(TestSupportError("\(binary.path) is missing; build it with `swift build --build-tests`"))
        }
        if let newer = newestObject(in: folder), newer.date > built {
            return .failure(
                TestSupportError(
                    "\(binary.path) is older than \(newer.path): it would not run the code under test. Build it with `swift build --build-tests` (a build that failed or stopped early leaves an old binary behind)"
                ))
        }
        return .success(binary.path)
    }

    /// The newest object file the binary is linked from, as SwiftPM's link file list for it names them (nil when the
    /// build wrote none): only those, since the build may compile other targets (tests, examples) after linking it.
    private static func newestObject(in folder: URL) -> (path: String, date: Date)? {
        let list = folder.appendingPathComponent("meridian.product/Objects.LinkFileList")
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return nil }
        var newest: (path: String, date: Date)?
        for line in text.split(separator: "\n") {
            let path = line.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            guard path.hasSuffix(".o"), let date = modified(URL(fileURLWithPath: path)) else { continue }
            if date > newest?.date ?? .distantPast { newest = (path, date) }
        }
        return newest
    }

    private static func modified(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// What a finished run printed and returned.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `meridian arguments…` (or another `executable`, such as openssl or curl) to completion from `directory`
    /// (the repository root by default), without the caller's `MERIDIAN_*` settings, waiting on the calling thread
    /// (tests that run in parallel use `ProgramRun.run` with `environment(_:)`).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL = TestData.repositoryRoot,
        executable: String? = nil
    ) throws -> Result {
        try ProgramRun.blocking(
            try executable ?? path, arguments, environment: Self.environment(environment), in: directory)
    }

    /// The test process's environment without its `MERIDIAN_*` settings, with `extra` added.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        for key in ["MERIDIAN_CONFIG", "MERIDIAN_TOKEN", "MERIDIAN_DB", "MERIDIAN_SERVER"] {
            merged.removeValue(forKey: key)
        }
        return merged.merging(extra) { $1 }
    }

    /// Starts `meridian serve --config config` and waits until it logs the address it listens on. The port is read
    /// from that line, so the configuration can say `http.port: 0` and let the kernel choose one that is free.
    /// Throws with the service's output when it exits first.
    public static func serve(
        config: String, environment: [String: String]? = nil, in directory: URL = TestData.repositoryRoot,
        timeout: Double = 60
    ) async throws -> (process: ManagedProcess, port: Int) {
        let process = try ManagedProcess(
            path, ["serve", "--config", config], environment: environment, currentDirectory: directory)
        try await ManagedProcess.waitUntil(timeout: timeout, "meridian serve to listen") {
            guard process.isRunning else { throw TestSupportError("meridian serve exited: \(process.output())") }
            return listeningPort(in: process.output()) != nil
        }
        return (process, listeningPort(in: process.output()) ?? 0)
    }

    /// The port of `meridian serve`'s "listening on http(s)://host:port" line in `output`.
    public static func listeningPort(in output: String) -> Int? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("listening on http") }),
            let address = line.split(separator: " ").first(where: {
                $0.hasPrefix("http://") || $0.hasPrefix("https://")
            }),
            let colon = address.lastIndex(of: ":")
        else { return nil }
        return Int(address[address.index(after: colon)...])
    }
}
