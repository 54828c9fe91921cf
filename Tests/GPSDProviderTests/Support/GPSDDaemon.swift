import Foundation
import MeridianTesting

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
        process.waitUntilExit()
    }

    /// Starts gpsd again on the same port.
    func restart() async throws {
        process.stop()
        process = try Self.start(device: device, port: port)
        try await waitUntilListening()
    }

    func stop() { process.stop() }

    /// Feeds a TXT sentence (which makes no fix) through `pty` until gpsd has identified the device as NMEA.
    ///
    /// Right after opening a device gpsd probes for binary protocols and changes the line speed, which
    /// flushes its input; a log written during that time would be lost.
    func waitUntilIdentified(through pty: PseudoTerminalPair) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !process.output().contains("identified as type NMEA0183") {
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("gpsd did not identify \(device): \(process.output())")
            }
            try await pty.write(lines: ["$GPTXT,01,01,02,Meridian test primer*7B"], interval: .milliseconds(50))
        }
    }

    /// gpsd binds loopback only unless given -G; -N foreground, -n open the device now, -b read-only,
    /// -D 3 logs the device identification that `waitUntilIdentified` looks for.
    private static func start(device: String, port: Int) throws -> ManagedProcess {
        try ManagedProcess("gpsd", ["-N", "-n", "-b", "-D", "3", "-S", "\(port)", device])
    }

    private func waitUntilListening() async throws {
        try await ManagedProcess.waitUntil(timeout: 60, "gpsd listening on 127.0.0.1:\(port)") { [port, process] in
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

extension GPSDDaemon {
    /// Runs `body` with a socat pair and a gpsd (on `port`, or a free one) reading its device, once gpsd has
    /// identified the device as NMEA; gpsd, socat and the folder are stopped and removed on every path.
    static func withIdentified<T>(port: Int? = nil, _ body: (PseudoTerminalPair, GPSDDaemon) async throws -> T)
        async throws -> T
    {
        let directory = try TestData.temporaryDirectory("gpsd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pty = try await PseudoTerminalPair.started(in: directory)
        defer { pty.stop() }
        let gpsd = try await GPSDDaemon(device: pty.devicePath, port: port)
        defer { gpsd.stop() }
        try await gpsd.waitUntilIdentified(through: pty)
        return try await body(pty, gpsd)
    }
}
