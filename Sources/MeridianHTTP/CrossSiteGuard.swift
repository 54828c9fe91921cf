import HTTPTypes
import Hummingbird
import MeridianCore

/// Refuses requests that a web page on another site could make a visitor's browser send to Meridian:
/// - a state-changing request (anything but GET, HEAD and OPTIONS) whose `Origin` is not the server's own
///   (`http://` or `https://` and the request's `Host`), or that the browser marks `Sec-Fetch-Site: cross-site` or
///   `same-site`. Clients that are not browsers (curl, the CLI) send neither header and are not affected.
/// - without a token, any request whose `Host` is not a loopback address, `localhost` or the configured
///   `http.host`: a page that points its own name at 127.0.0.1 (DNS rebinding) still names itself in `Host`.
/// Both are a 403 `cross_site_request`.
struct CrossSiteGuard: RouterMiddleware {
    typealias Context = MeridianRequestContext
    /// The configured `http.host`, lowercased; `Host` must name it or a loopback address when `checkHost` is set.
    let configuredHost: String
    /// True when no token is configured: the request's `Host` is the only sign of where it came from.
    let checkHost: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let host = request.head.authority ?? ""
        if checkHost, !isOwnHost(host) {
            throw Self.refusal(
                "the request names host '\(host)', which is not this server's loopback address; use http://127.0.0.1 or http://localhost (or set http.token)"
            )
        }
        guard ![.get, .head, .options].contains(request.method) else { return try await next(request, context) }
        if let site = request.headers[.secFetchSite], site == "cross-site" || site == "same-site" {
            throw Self.refusal("a page on another site may not change anything here (Sec-Fetch-Site: \(site))")
        }
        if let origin = request.headers[.origin], origin != "http://\(host)" && origin != "https://\(host)" {
            throw Self.refusal("a page from \(origin) may not change anything here; only this server's own pages may")
        }
        return try await next(request, context)
    }

    /// A loopback address, `localhost` or the configured host, with or without a port.
    func isOwnHost(_ authority: String) -> Bool {
        var name = authority.lowercased()
        if name.hasPrefix("["), let end = name.firstIndex(of: "]") {
            name = String(name[name.index(after: name.startIndex)..<end])
        } else if let colon = name.lastIndex(of: ":"), name.firstIndex(of: ":") == colon {
            name = String(name[..<colon])
        }
        return name == "localhost" || name == configuredHost || LoopbackAddress.isLoopbackLiteral(name)
    }

    static func refusal(_ message: String) -> APIError {
        APIError(.forbidden, code: "cross_site_request", message: message)
    }
}

extension HTTPField.Name {
    /// `Sec-Fetch-Site`, sent by browsers: `same-origin`, `same-site`, `cross-site` or `none`.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
