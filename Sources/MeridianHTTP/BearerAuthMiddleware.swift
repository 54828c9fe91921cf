import Foundation
import Hummingbird
import MeridianCore

/// Requires `Authorization: Bearer <token>` on every request, or the session cookie of a browser that signed in with
/// the token (on the sign-in form, or by a sign-in link `/?token=…`, which sets the cookie and leads to the page
/// without the token), except `/health` (unless `http.protect_health` is set), the site's public paths (sign-in page,
/// assets) and the plugins' own public prefixes. A browser asking for a page without either is sent to sign in.
/// Wrong tokens are held back and limited per client address (`CredentialAttempts`).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let token: String
    /// When false, `/health` answers without a token (and then shows status, version and uptime only).
    let protectHealth: Bool
    /// Wrong tokens by client address.
    let attempts: CredentialAttempts
    /// The browser sessions, when pages are served.
    var sessions: BrowserSessions? = nil
    /// The pages, for their public paths and sign-in page.
    var site: (any BrowserSite)? = nil
    /// Path prefixes whose routes check a credential of their own (the phone feeds' device keys).
    var publicPrefixes: [String] = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        let open =
            (!protectHealth && context.endpointPath == "/health") || (site?.isPublic(path) ?? false)
            || publicPrefixes.contains { path.hasPrefix($0) }
        if open || (sessions?.accepts(request) ?? false) {
            return try await next(request, context)
        }
        let isPage = Self.isPageRequest(request)
        if isPage, let sessions, let link = request.uri.queryParameters["token"] {
            switch sessions.signIn(
                presenting: String(link), client: context.clientAddress, secure: context.isSecure, kind: .link)
            {
            case .signedIn(let cookie):
                return Response(
                    status: .seeOther,
                    headers: [
                        .location: Self.target(of: request), .setCookie: cookie,
                        .cacheControl: "no-store"
                    ])
            case .wrongToken:
                try await Task.sleep(for: CredentialAttempts.delay)
            case .limited(let wait):
                throw CredentialAttempts.limited(retryAfter: wait)
            }
        } else if let presented = Self.bearer(request) {
            if let wait = attempts.begin(client: context.clientAddress, kind: .bearer) {
                throw CredentialAttempts.limited(retryAfter: wait)
            }
            if Self.constantTimeEqual(Array(presented.utf8), Array(token.utf8)) {
                attempts.succeeded(client: context.clientAddress, kind: .bearer)
                return try await next(request, context)
            }
            attempts.failed(kind: .bearer)
            try await Task.sleep(for: CredentialAttempts.delay)
        }
        if let site, isPage {
            let location = "\(site.signInPath)?next=\(PercentEncoding.encoded(Self.target(of: request)))"
            return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        }
        var error = APIError(
            .unauthorized, code: "unauthorized",
            message:
                "this server requires 'Authorization: Bearer <token>': the token from http.token, MERIDIAN_TOKEN, or the token file `meridian serve` made beside the database (its first start printed where)"
        )
        error.headers[.wwwAuthenticate] = "Bearer realm=\"meridian\""
        throw error
    }

    /// The request's path and query without a `token` parameter (where a sign-in link leads).
    static func target(of request: Request) -> String {
        let items = (request.uri.query ?? "").split(separator: "&").filter {
            !($0 == "token" || $0.hasPrefix("token="))
        }
        return items.isEmpty ? request.uri.path : "\(request.uri.path)?\(items.joined(separator: "&"))"
    }

    /// The token of an `Authorization: Bearer <token>` header.
    static func bearer(_ request: Request) -> Substring? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return header.dropFirst(7)
    }

    /// A browser navigating to a page: GET or HEAD outside the API, `/health` and `/metrics`.
    static func isPageRequest(_ request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get || request.method == .head else { return false }
        return !(path == "/v1" || path.hasPrefix("/v1/") || path == "/health" || path == "/metrics")
    }

    /// True when the request carries `Authorization: Bearer <token>`.
    static func accepts(_ request: Request, token: String) -> Bool {
        guard let presented = bearer(request) else { return false }
        return constantTimeEqual(Array(presented.utf8), Array(token.utf8))
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
