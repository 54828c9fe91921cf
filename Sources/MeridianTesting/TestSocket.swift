import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP connection to 127.0.0.1, for tests that send partial, slow or malformed requests and
/// watch whether and when the server closes the connection. Blocking socket calls run on a
/// dedicated thread, never on the cooperative pool.
public final class TestSocket: @unchecked Sendable {
    private let descriptor: Int32
    /// Bytes received so far (appended by the read calls).
    private var buffer = Data()

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        descriptor = try Self.connect(port: port)
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) async throws {
        try await send(Data(text.utf8))
    }

    /// Sends `data`; fails if the server has closed the connection.
    public func send(_ data: Data) async throws {
        let descriptor = self.descriptor
        try await Self.onThread { try Self.sendAll(data, to: descriptor) }
    }

    /// Reads until the server closes the connection or `timeout` seconds pass; `closed` says which.
    public func readUntilClosed(timeout: Double) async throws -> (data: Data, closed: Bool) {
        let (data, closed) = try await read(timeout: timeout) { _ in false }
        return (data, closed)
    }

    /// Reads until `done` holds for everything received so far, the server closes, or `timeout` passes.
    public func read(timeout: Double, until done: @escaping @Sendable (Data) -> Bool) async throws -> (
        data: Data, closed: Bool
    ) {
        let descriptor = self.descriptor
        let start = buffer
        let (received, closed) = try await Self.onThread {
            try Self.receive(from: descriptor, initial: start, timeout: timeout, stopWhen: done)
        }
        buffer = received
        return (received, closed)
    }

    /// True when a TCP socket listens on `port` (on 127.0.0.1 or every address), read from `/proc/net/tcp` without
    /// connecting: a peer that serves a single connection (socat) keeps it for the program under test.
    public static func isListening(port: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let local = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "0A"
        }
    }

    // MARK: Blocking helpers, shared with HTTPTestClient

    /// A connected socket with a 200 ms receive timeout (so that reads can watch a deadline) and, when given, a
    /// receive buffer of `receiveBuffer` bytes (set before connecting, for a client that reads slowly or never).
    public static func connect(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed") }
        var interval = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw TestSupportError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return descriptor
    }

    static func sendAll(_ payload: Data, to descriptor: Int32) throws {
        try payload.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw TestSupportError("send() failed: errno \(errno)") }
                offset += sent
            }
        }
    }

    /// Receives until `stopWhen` holds (closed: false), the peer closes or resets (closed: true), or
    /// `timeout` passes (closed: false).
    static func receive(
        from descriptor: Int32, initial: Data = Data(), timeout: Double,
        stopWhen: (Data) -> Bool
    ) throws -> (Data, Bool) {
        var received = initial
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                if stopWhen(received) { return (received, false) }
            } else if count == 0 || errno == ECONNRESET {
                return (received, true)
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw TestSupportError("recv() failed: errno \(errno)")
            }
        }
        return (received, false)
    }

    /// Runs blocking `work` on its own thread.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
