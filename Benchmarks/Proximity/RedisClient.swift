import FlyerProximity
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking RESP2 client over TCP, for comparing with Redis in the benchmark.
final class RedisClient {
    enum Reply: Equatable {
        case simple(String)
        case error(String)
        case integer(Int)
        case bulk(String?)
        case array([Reply]?)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    private var position = 0

    init(host: String = "127.0.0.1", port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "cannot create a socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(
                description: "cannot connect to Redis at \(host):\(port) (errno \(errno)); is redis-server running?")
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(socket)
    }

    /// Sends one command and waits for its reply.
    func command(_ arguments: [String]) throws -> Reply {
        try pipeline([arguments])[0]
    }

    /// Sends several commands at once and reads all replies.
    func pipeline(_ commands: [[String]]) throws -> [Reply] {
        var out: [UInt8] = []
        for arguments in commands {
            out += Array("*\(arguments.count)\r\n".utf8)
            for argument in arguments {
                let bytes = Array(argument.utf8)
                out += Array("$\(bytes.count)\r\n".utf8) + bytes + [13, 10]
            }
        }
        var sent = 0
        while sent < out.count {
            let count = out[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "sending to Redis failed (errno \(errno))") }
            sent += count
        }
        return try commands.map { _ in try reply() }
    }

    private func byte() throws -> UInt8 {
        if position == buffer.count {
            buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "Redis closed the connection") }
            buffer.removeLast(buffer.count - count)
            position = 0
        }
        defer { position += 1 }
        return buffer[position]
    }

    private func line() throws -> String {
        var bytes: [UInt8] = []
        while true {
            let next = try byte()
            if next == 13 {
                _ = try byte()
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(next)
        }
    }

    private func reply() throws -> Reply {
        let kind = try byte()
        let text = try line()
        switch kind {
        case UInt8(ascii: "+"): return .simple(text)
        case UInt8(ascii: "-"): return .error(text)
        case UInt8(ascii: ":"): return .integer(Int(text) ?? 0)
        case UInt8(ascii: "$"):
            guard let length = Int(text), length >= 0 else { return .bulk(nil) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(length)
            for _ in 0..<length { bytes.append(try byte()) }
            _ = try byte()
            _ = try byte()
            return .bulk(String(decoding: bytes, as: UTF8.self))
        case UInt8(ascii: "*"):
            guard let count = Int(text), count >= 0 else { return .array(nil) }
            return .array(try (0..<count).map { _ in try reply() })
        default:
            throw Failure(description: "unexpected reply from Redis: \(Character(Unicode.Scalar(kind)))\(text)")
        }
    }
}

extension RedisClient {
    /// Replaces the set `key` with the point flyers of `flyers` (GEOADD, pipelined 1000 at a time); returns the seconds taken.
    func addFlyers(_ flyers: [Flyer], key: String = "flyers") throws -> Double {
        _ = try command(["DEL", key])
        let start = DispatchTime.now().uptimeNanoseconds
        var batch: [[String]] = []
        for flyer in flyers {
            guard case .point(let point) = flyer.geometry else { continue }
            batch.append(["GEOADD", key, "\(point.longitude)", "\(point.latitude)", flyer.id])
            if batch.count == 1000 {
                try Self.check(pipeline(batch), "GEOADD")
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try Self.check(pipeline(batch), "GEOADD") }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Throws when any reply is an error, naming `what` was refused.
    static func check(_ replies: [Reply], _ what: String) throws {
        if let failure = replies.first(where: { if case .error = $0 { return true } else { return false } }) {
            throw Failure(description: "Redis refused a \(what): \(failure)")
        }
    }
}
