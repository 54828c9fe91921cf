#if canImport(Glibc)
    import Glibc
#endif

/// Decides whether a host is a loopback address by parsing and resolving it, never by its text:
/// `127.0.0.1.example.com` is a name like any other, and counts only if it resolves to loopback.
public enum LoopbackAddress {
    /// True for an address in 127.0.0.0/8, `::1` (also bracketed, `[::1]`) or `::ffff:127.x.y.z`, and for
    /// a host name that resolves to at least one address, all of them loopback. A name that does not
    /// resolve is not loopback.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard !name.isEmpty else { return false }
        let addresses = resolve(name)
        return !addresses.isEmpty && addresses.allSatisfy(\.isLoopback)
    }

    /// True for a loopback address written as an address (`127.0.0.1`, `::1`, `[::1]`), never looked up:
    /// for judging what a client put in a `Host` header, which a DNS name pointed at 127.0.0.1 would pass.
    public static func isLoopbackLiteral(_ host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return Address.v4(UInt32(bigEndian: v4.s_addr)).isLoopback }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 { return Address.v6(withUnsafeBytes(of: &v6) { Array($0) }).isLoopback }
        return false
    }

    /// One resolved address.
    enum Address {
        /// An IPv4 address in host byte order.
        case v4(UInt32)
        /// An IPv6 address, 16 bytes.
        case v6([UInt8])

        var isLoopback: Bool {
            switch self {
            case .v4(let address):
                return address >> 24 == 127
            case .v6(let bytes):
                let loopback = bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1
                let mappedLoopback =
                    bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                    && bytes[12] == 127
                return loopback || mappedLoopback
            }
        }
    }

    /// Every address `name` stands for: a literal is parsed, a name is resolved (hosts file, DNS).
    static func resolve(_ name: String) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let socketAddress = entry.pointee.ai_addr {
                switch entry.pointee.ai_family {
                case AF_INET:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        $0.pointee.sin_addr.s_addr
                    }
                    addresses.append(.v4(UInt32(bigEndian: address)))
                case AF_INET6:
                    var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_addr
                    }
                    addresses.append(.v6(withUnsafeBytes(of: &address) { Array($0) }))
                default:
                    break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }
}
