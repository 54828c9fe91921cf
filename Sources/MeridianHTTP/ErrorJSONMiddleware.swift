import Hummingbird
import Logging
import MeridianCore

/// Turns every error into the API's JSON error shape: Hummingbird's own errors
/// (unknown route, bad body) keep their status, a known path asked with the wrong method is a
/// 405 with an `Allow` header; the database busy or refusing writes (`StorageUnavailable`) is a 503 with
/// `Retry-After`; anything else is a 500 that is logged. A HEAD request gets the
/// error's status and headers without its body.
struct ErrorJSONMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext

    /// The routes, to tell an unknown path from a wrong method.
    let routeMethods: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let apiError = self.apiError(for: error, request, context)
            guard request.method == .head else { throw apiError }
            return try apiError.response(from: request, context: context).createHeadResponse()
        }
    }

    private func apiError(for error: any Error, _ request: Request, _ context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError where error.status == .notFound:
            // Hummingbird answers 404 for a wrong method too; the recorded routes tell them apart.
            let methods = routeMethods.methods(for: request.uri.path)
            let allowed = methods.joined(separator: ", ")
            guard !methods.isEmpty, !methods.contains(request.method.rawValue) else {
                return APIError(
                    .notFound, code: "not_found",
                    message:
                        "no route for \(request.method.rawValue) \(request.uri.path); see docs/openapi.yaml for the API"
                )
            }
            var methodError = APIError(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allowed)")
            methodError.headers[.allow] = allowed
            return methodError
        case let error as HTTPError:
            return APIError(
                error.status, code: "http_\(error.status.code)", message: error.body ?? error.status.reasonPhrase)
        case let error as any HTTPResponseError:
            return APIError(error.status, code: "http_\(error.status.code)", message: error.status.reasonPhrase)
        case let error as any StorageUnavailable:
            guard let refusal = error.refusal else { fallthrough }
            return .storageUnavailable(refusal, because: error)
        default:
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIError(
                .internalServerError, code: "internal_error",
                message: "the server failed to handle the request: \(error)")
        }
    }
}
