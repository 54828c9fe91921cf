import Foundation
import HTTPTypes
import Hummingbird

/// Who sent a request and whether it came over TLS: the connection's peer and the server's own TLS, unless the peer
/// is one of `http.trusted_proxies`; then `Forwarded` (RFC 7239), else `X-Forwarded-For` and `X-Forwarded-Proto`,
/// say so. The client is the right-most forwarded address that is not itself a trusted proxy. Headers from any
/// other peer are ignored: anyone can send them.
struct ForwardedClient: Sendable {
    let trusted: [AddressRange]
    /// True when the server itself answers HTTPS (`http.tls`).
    let directTLS: Bool

    /// The client address and scheme of a request that arrived from `peer`.
    func resolve(peer: String, headers: HTTPFields) -> (address: String, secure: Bool) {
        guard isTrusted(peer) else { return (peer, directTLS) }
        var addresses: [String] = []
        var schemes: [String] = []
        let forwarded = headers[values: .forwarded]
        if !forwarded.isEmpty {
            for element in forwarded.flatMap({ $0.split(separator: ",") }) {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    switch parts[0].trimmingCharacters(in: .whitespaces).lowercased() {
                    case "for": addresses.append(AddressRange.bare(String(parts[1])))
                    case "proto": schemes.append(AddressRange.bare(String(parts[1])).lowercased())
                    default: break
                    }
                }
            }
        } else {
            addresses = headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }.map {
                AddressRange.bare(String($0))
            }
            schemes = headers[values: .xForwardedProto].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        let client = addresses.last { !isTrusted($0) } ?? addresses.first ?? peer
        let secure = schemes.last.map { $0 == "https" } ?? directTLS
        return (client, secure)
    }

    private func isTrusted(_ address: String) -> Bool {
        trusted.contains { $0.contains(address) }
    }
}

/// Puts the client address and scheme (`ForwardedClient`) into the request context, for the routes and middleware
/// after it (rate limits of wrong tokens, `Secure` cookies), with the server's `CredentialAttempts`.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let resolver: ForwardedClient
    let attempts: CredentialAttempts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        (context.clientAddress, context.isSecure) = resolver.resolve(peer: peer, headers: request.headers)
        context.credentialAttempts = attempts
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// `Forwarded` (RFC 7239).
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
