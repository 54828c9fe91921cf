import Hummingbird

/// Requires `Authorization: Bearer <token>` on every request when a token is configured.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
              Self.constantTimeEqual(Array(header.utf8.dropFirst(7)), Array(token.utf8))
        else {
            throw APIError(.unauthorized, code: "unauthorized",
                           message: "this server requires 'Authorization: Bearer <token>' (the token from http.token or MERIDIAN_TOKEN)")
        }
        return try await next(request, context)
    }

    /// Compares without leaking the position of the first difference through timing.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : 0
            let right = index < b.count ? b[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
