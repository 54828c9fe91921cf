import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol (`sd_notify`) for `meridian serve` under `Type=notify` (dist/systemd/meridian.service):
/// `READY=1` once the HTTP port answers, `WATCHDOG=1` at half of `WatchdogSec` (`WATCHDOG_USEC`), `STOPPING=1` when
/// shutdown begins. Exists only when systemd gave a `NOTIFY_SOCKET`.
struct SystemdNotifier: Service {
    /// The datagram socket's path; a leading `@` names one in the abstract namespace.
    let socketPath: String
    /// How often the watchdog is pinged, nil when systemd watches nothing.
    let watchdogInterval: Duration?
    let logger: Logger

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` (the watchdog is this process's only when the pid is
    /// its own or not given); nil without `NOTIFY_SOCKET`.
    init?(environment: [String: String], logger: Logger) {
        guard let socketPath = environment["NOTIFY_SOCKET"], !socketPath.isEmpty else { return nil }
        self.socketPath = socketPath
        self.logger = logger
        let forThisProcess = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if forThisProcess, let micros = environment["WATCHDOG_USEC"].flatMap(Int64.init), micros > 0 {
            watchdogInterval = .microseconds(micros / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Tells systemd the service is ready: called once the HTTP server listens on `port`.
    func ready(port: Int) {
        send("READY=1\nSTATUS=listening on port \(port)")
    }

    /// Pings the watchdog until shutdown begins, then says `STOPPING=1`.
    func run() async throws {
        if let watchdogInterval {
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    send("WATCHDOG=1")
                    try? await Task.sleep(for: watchdogInterval)
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        send("STOPPING=1")
    }

    /// Sends `state` as one datagram; a failure is logged and otherwise ignored (systemd then acts on its timeouts).
    func send(_ state: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            logger.warning(
                "systemd: cannot create a socket to notify \(socketPath): \(String(cString: strerror(errno)))")
            return
        }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else {
            logger.warning("systemd: NOTIFY_SOCKET \(socketPath) is longer than \(capacity - 1) bytes; not notified")
            return
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let sent = state.utf8CString.withUnsafeBufferPointer { message in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, message.baseAddress, message.count - 1, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        if sent < 0 {
            logger.warning(
                "systemd: cannot notify \(socketPath) of \(state.prefix { $0 != "\n" }): \(String(cString: strerror(errno)))"
            )
        }
    }
}
