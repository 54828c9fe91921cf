#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process started for a test (socat, gpsd, the meridian binary…),
/// stopped by PID: SIGTERM, then SIGKILL if it has not exited within a grace period.
public final class ManagedProcess: @unchecked Sendable {
    public let process: Process
    /// Where stdout and stderr go (a temporary file), readable with `output()`.
    public let logFile: URL

    /// Starts `executable` (an absolute path, or a name looked up in PATH) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                currentDirectory: URL? = nil) throws {
        guard let path = ManagedProcess.locate(executable) else {
            throw TestSupportError("'\(executable)' is not installed; run scripts/bootstrap")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-proc-\(UUID().uuidString.prefix(8)).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Everything the process has written so far.
    public func output() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(pid, signal) }
    }

    /// Stops the process: SIGTERM, then SIGKILL after `grace` seconds. Waits until it has exited.
    public func stop(grace: Double = 3) {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits until `condition` holds, polling every 20 ms; throws after `timeout` seconds.
    public static func waitUntil(timeout: Double, _ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError("timed out after \(timeout) s waiting for \(what)")
    }

    /// Full path of `name` from PATH (or `name` itself if it is a path).
    public static func locate(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let extra = ["/usr/sbin", "/sbin", "/usr/local/bin"]
        for directory in path.split(separator: ":").map(String.init) + extra {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    deinit { stop(grace: 1) }
}
