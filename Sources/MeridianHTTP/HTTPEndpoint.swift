import Foundation
import NIOCore

/// Where the requests for an `http://` or `https://` URL go.
public struct HTTPEndpoint: Sendable, Equatable {
    /// The host name or address to connect to (an IPv6 address without its brackets).
    public var host: String
    public var port: Int
    public var tls: Bool
    /// The URL's path and query, as a request line sends them ("/" when it has none).
    public var path: String
    /// The `Host` header.
    public var authority: String

    /// The endpoint of `url`; nil unless it is an absolute `http` or `https` URL with a host.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let rawHost = components.host, !rawHost.isEmpty
        else { return nil }
        tls = scheme == "https"
        host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        port = components.port ?? (tls ? 443 : 80)
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
        let shownHost = host.contains(":") ? "[\(host)]" : host
        authority = components.port == nil ? shownHost : "\(shownHost):\(port)"
    }

    /// True when `host` is an IP address (no server name to send or verify).
    var isAddress: Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }
}
