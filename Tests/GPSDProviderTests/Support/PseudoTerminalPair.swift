import Foundation
import MeridianTesting

/// Two linked pseudo-terminals made by socat: bytes written to `writerPath` come out of `readerPath`.
final class PseudoTerminalPair {
    let directory: URL
    let writerPath: String
    let readerPath: String
    private(set) var socat: ManagedProcess

    init(directory: URL) async throws {
        self.directory = directory
        writerPath = directory.appendingPathComponent("writer").path
        readerPath = directory.appendingPathComponent("reader").path
        socat = try Self.startSocat(writer: writerPath, reader: readerPath)
        try await waitForLinks()
    }

    /// Writes `lines` (CRLF-terminated) to the writer end, pausing `interval` between lines.
    func write(lines: [String], interval: Duration = .milliseconds(4)) async throws {
        try await Self.write(lines: lines, to: writerPath, interval: interval)
    }

    /// Writes `lines` (CRLF-terminated) to the terminal at `path`, pausing `interval` between lines.
    static func write(lines: [String], to path: String, interval: Duration) async throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for line in lines {
            try handle.write(contentsOf: Data((line + "\r\n").utf8))
            try await Task.sleep(for: interval)
        }
    }

    func stop() { socat.terminate() }

    private func waitForLinks() async throws {
        try await ManagedProcess.waitUntil(timeout: 5, "socat's pseudo-terminal links") { [writerPath, readerPath] in
            FileManager.default.fileExists(atPath: writerPath) && FileManager.default.fileExists(atPath: readerPath)
        }
    }

    private static func startSocat(writer: String, reader: String) throws -> ManagedProcess {
        try ManagedProcess("socat", ["-d", "-d", "pty,raw,echo=0,link=\(writer)", "pty,raw,echo=0,link=\(reader)"])
    }
}

/// A gpsd 3.22 on a free loopback port, reading one device (read-only, no waiting for clients).
final class GPSDDaemon {
    let port: Int
    let device: String
    private(set) var process: ManagedProcess

    init(device: String, port: Int? = nil) async throws {
        self.device = device
        self.port = try port ?? FreePort.next()
        process = try Self.start(device: device, port: self.port)
        try await waitUntilListening()
    }

    /// Kills gpsd (SIGKILL, as a crash would) and waits until it has exited.
    func kill() {
        process.send(SIGKILL)
        process.process.waitUntilExit()
    }

    /// Starts gpsd again on the same port.
    func restart() async throws {
        process.terminate()
        process = try Self.start(device: device, port: port)
        try await waitUntilListening()
    }

    func stop() { process.terminate() }

    /// Feeds a TXT sentence (which makes no fix) through `pty` until gpsd has identified the device as NMEA.
    ///
    /// Right after opening a device gpsd probes for binary protocols and changes the line speed, which
    /// flushes its input; a log written during that time would be lost.
    func waitUntilIdentified(through pty: PseudoTerminalPair) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !process.output().contains("identified as type NMEA0183") {
            guard ContinuousClock.now < deadline else { throw TestSupportError("gpsd did not identify \(device): \(process.output())") }
            try await pty.write(lines: ["$GPTXT,01,01,02,Meridian test primer*7B"], interval: .milliseconds(50))
        }
    }

    /// gpsd binds loopback only unless given -G; -N foreground, -n open the device now, -b read-only,
    /// -D 3 logs the device identification that `waitUntilIdentified` looks for.
    private static func start(device: String, port: Int) throws -> ManagedProcess {
        try ManagedProcess("gpsd", ["-N", "-n", "-b", "-D", "3", "-S", "\(port)", device])
    }

    private func waitUntilListening() async throws {
        try await ManagedProcess.waitUntil(timeout: 5, "gpsd listening on 127.0.0.1:\(port)") { [port, process] in
            guard process.isRunning else { throw TestSupportError("gpsd exited: \(process.output())") }
            return Self.acceptsConnections(port: port)
        }
    }

    static func acceptsConnections(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
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
