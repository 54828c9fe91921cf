import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An IP address or CIDR range (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`) from `http.trusted_proxies`. IPv4 is
/// held as an IPv4-mapped IPv6 address, so that `127.0.0.1` also matches a peer written `::ffff:127.0.0.1`.
struct AddressRange: Sendable, Equatable {
    let bytes: [UInt8]
    let prefixLength: Int

    /// Parses `text`; nil when it is not an address, or its prefix length is out of range.
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.address(String(parts[0])) else { return nil }
        let isV4 = parts[0].contains(".") && !parts[0].contains(":")
        let length: Int
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...(isV4 ? 32 : 128)).contains(given) else { return nil }
            length = isV4 ? given + 96 : given
        } else {
            length = 128
        }
        bytes = address
        prefixLength = length
    }

    /// True when `address` (an address as written in a header or by the socket) lies in this range.
    func contains(_ address: String) -> Bool {
        guard let other = Self.address(Self.bare(address)) else { return false }
        var remaining = prefixLength
        for index in 0..<16 where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != other[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The 16 bytes of an IPv6 address, or of an IPv4 address mapped into IPv6; nil for anything else.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// An address as headers write it, without quotes, brackets or port (`"[2001:db8::1]:4711"`, `192.0.2.1:80`).
    static func bare(_ written: String) -> String {
        var text = written.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon { return String(text[..<colon]) }
        return text
    }
}
