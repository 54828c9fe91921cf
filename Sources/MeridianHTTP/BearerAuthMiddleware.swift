import Foundation
import Hummingbird
import MeridianCore

/// Requires `Authorization: Bearer <token>` on every request when a token is configured, or the session
/// cookie of a browser that signed in with it, except `/health` (unless `http.protect_health` is set) and the
/// site's public paths (sign-in page, assets). A browser asking for a page without either is sent to sign in.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let token: String
    /// When false, `/health` answers without a token (and then shows status, version and uptime only).
    let protectHealth: Bool
    /// The browser sessions, when pages are served.
    var sessions: BrowserSessions? = nil
    /// The pages, for their public paths and sign-in page.
    var site: (any BrowserSite)? = nil
    /// Path prefixes whose routes check a credential of their own (the phone feeds' device keys).
    var publicPrefixes: [String] = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let open = (!protectHealth && context.endpointPath == "/health") || (site?.isPublic(path) ?? false)
            || publicPrefixes.contains { path.hasPrefix($0) }
        if open || Self.accepts(request, token: token) || (sessions?.accepts(request) ?? false) {
            return try await next(request, context)
        }
        if let site, Self.isPageRequest(request) {
            let target = request.uri.query.map { "\(path)?\($0)" } ?? path
            let location = "\(site.signInPath)?next=\(PercentEncoding.encoded(target))"
            return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        }
        var error = APIError(.unauthorized, code: "unauthorized",
                             message: "this server requires 'Authorization: Bearer <token>' (the token from http.token or MERIDIAN_TOKEN)")
        error.headers[.wwwAuthenticate] = "Bearer realm=\"meridian\""
        throw error
    }

    /// A browser navigating to a page: GET or HEAD outside the API, `/health` and `/metrics`.
    static func isPageRequest(_ request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get || request.method == .head else { return false }
        return !(path == "/v1" || path.hasPrefix("/v1/") || path == "/health" || path == "/metrics")
    }

    /// True when the request carries `Authorization: Bearer <token>`.
    static func accepts(_ request: Request, token: String) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        return constantTimeEqual(Array(header.utf8.dropFirst(7)), Array(token.utf8))
    }

    /// Compares every byte of the longer input (the shorter one padded with zeros) and the full
    /// lengths, so that neither the first difference nor a length difference is folded away.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt(bitPattern: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : 0
            let right = index < b.count ? b[index] : 0
            difference |= UInt(left ^ right)
        }
        return difference == 0
    }
}
