import Hummingbird

/// Answers `OPTIONS` on a known path with 204 and an `Allow` header listing its methods
/// (an unknown path stays a 404).
struct OptionsMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let routeMethods: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .options else { return try await next(request, context) }
        let methods = routeMethods.methods(for: request.uri.path)
        guard !methods.isEmpty else {
            throw APIError.notFound("no route for \(request.uri.path); see docs/openapi.yaml for the API")
        }
        return Response(status: .noContent, headers: [.allow: methods.joined(separator: ", ")])
    }
}
