import Foundation
import MeridianTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// dist/systemd/meridian.service as systemd judges it, and `meridian serve` speaking systemd's protocols: readiness
/// and watchdog over a real `NOTIFY_SOCKET` datagram socket, log priorities when stderr is the journal.
@Suite("systemd")
struct SystemdTests {
    /// The shipped unit with `make install`'s substitutions, pointing at the built binary.
    private static func installedUnit() throws -> URL {
        let source = TestData.repositoryRoot.appendingPathComponent("dist/systemd/meridian.service")
        let unit = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(
                of: "@bindir@", with: URL(fileURLWithPath: MeridianBinary.path).deletingLastPathComponent().path
            )
            .replacingOccurrences(of: "@sysconfdir@", with: "/etc")
        let file = try TestData.temporaryDirectory().appendingPathComponent("meridian.service")
        try unit.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("systemd-analyze verify accepts the unit without a warning")
    func unitVerifies() throws {
        let unit = try Self.installedUnit()
        defer { try? FileManager.default.removeItem(at: unit.deletingLastPathComponent()) }
        // --man=no: the man page is installed by `make install` (scripts/install-test verifies with it).
        let result = try ProgramRun.blocking("systemd-analyze", ["verify", "--man=no", unit.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    @Test("systemd-analyze security scores the unit 2.5 or better (OK)")
    func unitIsHardened() throws {
        let unit = try Self.installedUnit()
        defer { try? FileManager.default.removeItem(at: unit.deletingLastPathComponent()) }
        let result = try ProgramRun.blocking("systemd-analyze", ["security", "--offline=true", "--no-pager", unit.path])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result.stdout)")
        let score = try #require(
            line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        #expect(score <= 2.5, "\(line)")
    }

    @Test("serve says READY=1 once the port answers, pings the watchdog, and says STOPPING=1 on SIGTERM")
    func notifyProtocol() async throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        let served = try await ServedInstance(extraEnvironment: [
            "NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"
        ]) { _ in
            "http:\n  port: 0\n"
        }
        defer { served.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "READY=1") {
            socket.received().contains { $0.hasPrefix("READY=1") }
        }
        #expect(try await served.client.request("GET", "/health").status == 200)
        // Half of WATCHDOG_USEC: a ping every 200 ms.
        try await ManagedProcess.waitUntil(timeout: 20, "three watchdog pings") {
            socket.received().filter { $0 == "WATCHDOG=1" }.count >= 3
        }
        #expect(!socket.received().contains("STOPPING=1"))
        served.process.stop(grace: 20)
        let messages = socket.received()
        let ready = try #require(messages.firstIndex { $0.hasPrefix("READY=1") })
        let stopping = try #require(messages.firstIndex(of: "STOPPING=1"), "\(messages)")
        #expect(ready < stopping)
        #expect(messages.filter { $0.hasPrefix("READY=1") }.count == 1, "\(messages)")
        #expect(served.process.exitStatus == 0, "\(served.process.output())")
    }

    @Test("without WATCHDOG_USEC nothing pings; a WATCHDOG_PID of another process is not this one's watchdog")
    func noWatchdogWithoutItsVariables() async throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        let served = try await ServedInstance(extraEnvironment: [
            "NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "100000", "WATCHDOG_PID": "1"
        ]) { _ in
            "http:\n  port: 0\n"
        }
        defer { served.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "READY=1") {
            socket.received().contains { $0.hasPrefix("READY=1") }
        }
        served.process.stop(grace: 20)
        #expect(socket.received().contains("STOPPING=1"))
        #expect(!socket.received().contains("WATCHDOG=1"), "\(socket.received())")
    }

    @Test("when stderr is the journal (JOURNAL_STREAM), every log line starts with its syslog priority")
    func journalPriorities() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("meridian.yaml")
        try "http:\n  port: 0\n".write(to: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        var status = stat()
        #expect(fstat(handle.fileDescriptor, &status) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try MeridianBinary.path)
        process.arguments = ["serve", "--config", config.path]
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        environment["MERIDIAN_DB"] = directory.appendingPathComponent("meridian.sqlite").path
        process.environment = environment
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let output = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        try await ManagedProcess.waitUntil(timeout: 30, "the listening notice") {
            output().contains("listening on http")
        }
        // notice is priority 5; no timestamp of its own (the journal keeps one).
        #expect(output().contains("<5>meridian: Meridian 0.1.0 listening on http://127.0.0.1:"), "\(output())")
        #expect((MeridianBinary.listeningPort(in: output()) ?? 0) > 0, "\(output())")
        #expect(output().split(separator: "\n").allSatisfy { $0.first == "<" }, "\(output())")
    }
}

/// A datagram socket bound to a temporary path, standing in for systemd's `NOTIFY_SOCKET`.
private final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32
    private let messages = Locked<[String]>([])

    init() throws {
        path = "/tmp/meridian-notify-\(UUID().uuidString.prefix(8)).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw TestSupportError("bind \(path): \(String(cString: strerror(errno)))") }
    }

    /// Every datagram received so far, in order (reads what is waiting without blocking).
    func received() -> [String] {
        messages.withLock { messages in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { break }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
            return messages
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
        unlink(path)
    }
}
