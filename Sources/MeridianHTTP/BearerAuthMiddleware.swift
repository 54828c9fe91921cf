import Hummingbird

/// Requires `Authorization: Bearer <token>` on every request when a token is configured,
/// except `/health` unless `http.protect_health` is set.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let token: String
    /// When false, `/health` answers without a token (and then shows status, version and uptime only).
    let protectHealth: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let open = !protectHealth && context.endpointPath == "/health"
        guard open || Self.accepts(request, token: token) else {
            var error = APIError(.unauthorized, code: "unauthorized",
                                 message: "this server requires 'Authorization: Bearer <token>' (the token from http.token or MERIDIAN_TOKEN)")
            error.headers[.wwwAuthenticate] = "Bearer realm=\"meridian\""
            throw error
        }
        return try await next(request, context)
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
