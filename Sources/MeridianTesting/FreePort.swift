import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finds TCP ports on 127.0.0.1 that nothing is listening on, for separate programs (gpsd, socat, PostgreSQL,
/// openssl) that must be given a port. A server started in the test process binds port 0 and reports its port instead.
public enum FreePort {
    /// Asks the kernel for an unused port on 127.0.0.1 (listen on port 0, read it back, close). Another process can
    /// take it before the program it is meant for binds it.
    public static func next() throws -> Int {
        let listener = try TestListener()
        defer { listener.close() }
        return listener.port
    }
}

/// A socket listening on a kernel-chosen loopback port, standing for another program that holds it.
public final class TestListener: Sendable {
    public let port: Int
    private let descriptor: Locked<Int32?>

    /// Listens on 127.0.0.1 and a port the kernel chooses.
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, listen(descriptor, 1) == 0, named == 0 else {
            let reason = errno
            Glibc.close(descriptor)
            throw TestSupportError("cannot listen on a loopback port: errno \(reason)")
        }
        self.descriptor = Locked(descriptor)
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening (once; later calls do nothing).
    public func close() {
        descriptor.withLock { descriptor in
            if let open = descriptor { Glibc.close(open) }
            descriptor = nil
        }
    }

    deinit { close() }
}

/// A failure in test scaffolding (a peer that would not start, a timeout…).
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
