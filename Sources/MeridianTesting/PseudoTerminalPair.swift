import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Two linked pseudo-terminals made by socat, standing in for a serial receiver: bytes
/// written to `receiverEnd` come out of `devicePath`, which a provider (or gpsd) opens.
/// Stopping socat removes both links, as unplugging a USB receiver removes its device.
public final class PseudoTerminalPair: Sendable {
    public let receiverEnd: String
    public let devicePath: String
    private let socat = Locked<ManagedProcess?>(nil)

    /// Names the two links inside `directory`; `start()` creates them.
    public init(directory: URL) {
        receiverEnd = directory.appendingPathComponent("receiver").path
        devicePath = directory.appendingPathComponent("ttyGPS").path
    }

    /// A pair in `directory` that is already started.
    public static func started(in directory: URL) async throws -> PseudoTerminalPair {
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        return pair
    }

    /// Starts `socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B` and waits for both links.
    public func start() async throws {
        let process = try ManagedProcess(
            "socat", ["-d", "-d", "pty,raw,echo=0,link=\(receiverEnd)", "pty,raw,echo=0,link=\(devicePath)"])
        socat.withLock { $0 = process }
        try await ManagedProcess.waitUntil(timeout: 60, "socat's pseudo-terminal links") { [receiverEnd, devicePath] in
            guard process.isRunning else { throw TestSupportError("socat exited: \(process.output())") }
            return FileManager.default.fileExists(atPath: receiverEnd)
                && FileManager.default.fileExists(atPath: devicePath)
        }
    }

    /// Stops socat by PID.
    public func stop() {
        let process = socat.withLock { process in
            defer { process = nil }
            return process
        }
        process?.stop()
    }

    /// Writes `lines` CRLF-terminated to the receiver end, pausing `interval` between lines.
    public func write(lines: [String], interval: Duration = .milliseconds(3)) async throws {
        try await Self.write(lines: lines, to: receiverEnd, interval: interval)
    }

    /// Writes `lines` CRLF-terminated to the terminal at `path`, pausing `interval` between lines.
    public static func write(lines: [String], to path: String, interval: Duration = .milliseconds(3)) async throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for line in lines {
            try handle.write(contentsOf: Data((line + "\r\n").utf8))
            try await Task.sleep(for: interval)
        }
    }

    /// Waits until this process holds the device end open (the provider under test opened it), so that nothing
    /// written to the receiver end before then is lost.
    public func waitUntilDeviceIsOpen(timeout: Double = 10) async throws {
        let device = devicePath
        try await ManagedProcess.waitUntil(timeout: timeout, "\(device) to be opened") {
            guard let terminal = try? FileManager.default.destinationOfSymbolicLink(atPath: device) else {
                return false
            }
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == terminal
            }
        }
    }
}

/// A terminal opened for reading when made, so that what is written to it afterwards is all read.
public final class TerminalReader: Sendable {
    private let descriptor: Int32

    /// Opens the terminal at `path` (non-blocking).
    public init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw TestSupportError("cannot open \(path): errno \(errno)") }
    }

    /// Everything that arrives within `duration`.
    public func read(for duration: Duration) async throws -> [UInt8] {
        var collected: [UInt8] = []
        let deadline = ContinuousClock.now + duration
        var chunk = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { collected += chunk[..<count] } else { try await Task.sleep(for: .milliseconds(10)) }
        }
        return collected
    }

    deinit { close(descriptor) }
}

extension TestData {
    /// The NMEA sentences of a shared log (`nmea/<name>`), without gpsd's `#` comment lines.
    public static func nmeaSentences(_ name: String) throws -> [String] {
        let text = try String(contentsOf: url("nmea/\(name)"), encoding: .isoLatin1)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") }
    }
}
