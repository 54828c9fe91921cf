import Hummingbird
import Logging

/// Turns every error into the API's JSON error shape: Hummingbird's own errors
/// (unknown route, bad body) keep their status, a known path asked with the wrong method is a
/// 405 with an `Allow` header; anything else is a 500 that is logged.
struct ErrorJSONMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext

    /// The routes, to tell an unknown path from a wrong method.
    let routeMethods: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            let code: String
            let message: String
            switch error.status {
            case .notFound where !routeMethods.methods(for: request.uri.path).isEmpty:
                let allowed = routeMethods.methods(for: request.uri.path)
                var error = APIError(.methodNotAllowed, code: "method_not_allowed",
                                     message: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allowed.joined(separator: ", "))")
                error.headers[.allow] = allowed.joined(separator: ", ")
                throw error
            case .notFound:
                code = "not_found"
                message = "no route for \(request.method.rawValue) \(request.uri.path); see docs/openapi.yaml for the API"
            case .methodNotAllowed:
                code = "method_not_allowed"
                message = "\(request.method.rawValue) is not allowed on \(request.uri.path)"
            default:
                code = "http_\(error.status.code)"
                message = error.body ?? error.status.reasonPhrase
            }
            throw APIError(error.status, code: code, message: message)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw APIError(.internalServerError, code: "internal_error", message: "the server failed to handle the request: \(error)")
        }
    }
}
