import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started for a test (socat, gpsd, the meridian binary…), stopped by PID:
/// SIGTERM, then SIGKILL if it has not exited within a grace period.
///
/// Spawned with `posix_spawn` and an empty signal mask with default dispositions: threads of
/// the test runner block signals, and a child inheriting that mask would ignore SIGTERM.
public final class ManagedProcess: Sendable {
    /// The process id.
    public let pid: pid_t
    /// Where stdout and stderr go (a temporary file, removed on deinit), readable with `output()`.
    public let logFile: URL
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` (an absolute path, or a name looked up in PATH) with `arguments`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) throws {
        guard let path = ManagedProcess.locate(executable) else {
            throw TestSupportError("'\(executable)' is not installed; run scripts/bootstrap")
        }
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-proc-\(UUID().uuidString.prefix(8)).log")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // `env -C DIR` changes directory and then execs the program, keeping the same pid.
        let launcher = currentDirectory == nil ? path : "/usr/bin/env"
        let argv = currentDirectory.map { [launcher, "-C", $0.path, path] + arguments } ?? [path] + arguments
        var child: pid_t = 0
        let result = Self.withCStrings(argv) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&child, launcher, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else { throw TestSupportError("cannot start \(path): \(String(cString: strerror(result)))") }
        pid = child
    }

    /// True until the process has exited (and been reaped).
    public var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// The exit code (or 128 + signal number) once the process has exited.
    public var exitStatus: Int32? {
        guard !isRunning, let raw = status.withLock({ $0 }) else { return nil }
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    /// Everything the process has written to stdout and stderr so far.
    public func output() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Blocks until the process has exited.
    public func waitUntilExit() {
        while isRunning { usleep(10_000) }
    }

    /// Stops the process: SIGTERM, then SIGKILL after `grace` seconds. Waits until it has exited.
    public func stop(grace: Double = 3) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning { kill(pid, SIGKILL) }
        waitUntilExit()
    }

    /// Waits until `condition` holds, polling every 20 ms; throws after `timeout` seconds. The one polling helper of
    /// the tests: a readiness wait, never a fixed sleep.
    public static func waitUntil(timeout: Double, _ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError("timed out after \(timeout) s waiting for \(what)")
    }

    /// Full path of `name` from PATH (or `name` itself if it is a path).
    public static func locate(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/local/bin"] {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }

    deinit {
        stop(grace: 1)
        try? FileManager.default.removeItem(at: logFile)
    }
}
