import Hummingbird
import Logging
import MeridianHTTP

/// Shows a page's errors as pages: an unknown run is a 404 page that says so, a failure a 500 page, both in
/// the layout (the API keeps its JSON errors).
struct PageErrorMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let site: WebSite

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try page(status: error.status, message: error.message, request)
        } catch let error as HTTPError {
            return try page(status: error.status, message: error.body ?? error.status.reasonPhrase, request)
        } catch {
            context.logger.error("page failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return try page(status: .internalServerError, message: "The page could not be made: \(error)", request)
        }
    }

    private func page(status: HTTPResponse.Status, message: String, _ request: Request) throws -> Response {
        let heading: String
        switch status.code {
        case 404: heading = "Not found"
        case 410: heading = "Deleted"
        case 400..<500: heading = "That did not work"
        default: heading = "Something went wrong"
        }
        let body = try ShellTemplates.set.render("error", ["heading": heading, "message": message])
        var response = try site.page(title: heading, body: body, path: request.uri.path, status: status)
        if request.method == .head { response.body = .init() }
        return response
    }
}
