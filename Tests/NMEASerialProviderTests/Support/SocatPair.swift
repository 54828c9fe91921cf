import Foundation
import MeridianTesting

/// Two linked pseudo-terminals made by socat, as a stand-in for a serial receiver:
/// bytes written to `receiverEnd` come out of `devicePath`, which the provider opens.
final class SocatPair {
    let receiverEnd: String
    let devicePath: String
    private var socat: ManagedProcess?

    init(directory: URL) {
        receiverEnd = directory.appendingPathComponent("receiver").path
        devicePath = directory.appendingPathComponent("ttyGPS").path
    }

    /// Starts socat and waits for both links (`socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B`).
    func start() async throws {
        let process = try ManagedProcess("socat", ["-d", "-d", "pty,raw,echo=0,link=\(receiverEnd)", "pty,raw,echo=0,link=\(devicePath)"])
        socat = process
        try await ManagedProcess.waitUntil(timeout: 5, "socat's pseudo-terminal links") { [receiverEnd, devicePath] in
            guard process.isRunning else { throw TestSupportError("socat exited: \(process.output())") }
            return FileManager.default.fileExists(atPath: receiverEnd) && FileManager.default.fileExists(atPath: devicePath)
        }
    }

    /// Stops socat (its links disappear, as an unplugged USB receiver's device does).
    func stop() {
        socat?.terminate()
        socat = nil
    }

    /// Writes `lines` CRLF-terminated to the receiver end, pausing `interval` between lines.
    static func write(lines: [String], to path: String, interval: Duration = .milliseconds(3)) async throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for line in lines {
            try handle.write(contentsOf: Data((line + "\r\n").utf8))
            try await Task.sleep(for: interval)
        }
    }

    /// Everything written to the device end by the provider, read from the receiver end for `duration`.
    static func read(from path: String, for duration: Duration) async throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw TestSupportError("cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        var collected: [UInt8] = []
        let deadline = ContinuousClock.now + duration
        var chunk = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { collected += chunk[..<count] } else { try await Task.sleep(for: .milliseconds(10)) }
        }
        return collected
    }
}

extension ManagedProcess {
    /// Stops the process by PID with SIGKILL and waits for it.
    ///
    /// Children started through Foundation's `Process` here inherit a signal mask that blocks SIGTERM,
    /// so `stop()` would always wait out its grace period before killing.
    func terminate() {
        send(SIGKILL)
        stop()
    }
}

/// NMEA sentences of a shared log, without gpsd's `#` comment lines.
func nmeaSentences(_ name: String) throws -> [String] {
    let text = try String(contentsOf: TestData.url("nmea/\(name)"), encoding: .isoLatin1)
    return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") }
}
