import Foundation
import Hummingbird
import MeridianHTTP

/// `GET/POST /signin` and `POST /signout`: the browser's sign-in with the API token. Without a token
/// configured there is nothing to sign in to and both lead to the "now" page.
struct SignInPage: Sendable {
    let sessions: BrowserSessions?

    func add(to router: RouterGroup<MeridianRequestContext>, site: WebSite) {
        router.get("signin") { request, _ in
            guard sessions != nil else { return site.redirect(to: "/") }
            return try page(
                site, next: Self.safeNext(request.uri.queryParameters["next"].map(String.init)), error: nil,
                status: .ok)
        }
        router.post("signin") { request, context in
            let form = try await FormData.read(request, limit: 16 << 10)
            let next = Self.safeNext(form["next"])
            guard let sessions else { return site.redirect(to: next) }
            switch sessions.signIn(
                presenting: form["token"] ?? "", client: context.clientAddress, secure: context.isSecure)
            {
            case .signedIn(let cookie):
                var response = site.redirect(to: next)
                response.headers[.setCookie] = cookie
                return response
            case .wrongToken:
                // A wrong token costs a moment, so that guessing is slow.
                try await Task.sleep(for: .milliseconds(400))
                return try page(
                    site, next: next, error: "That is not this server's access token.", status: .unauthorized)
            case .limited(let wait):
                var response = try page(
                    site, next: next, error: "Too many wrong tokens from this address; wait \(wait) s and try again.",
                    status: .tooManyRequests)
                response.headers[.retryAfter] = String(wait)
                return response
            }
        }
        router.post("signout") { request, context in
            var response = site.redirect(to: sessions == nil ? "/" : "/signin")
            if let sessions { response.headers[.setCookie] = sessions.signOut(request, secure: context.isSecure) }
            return response
        }
    }

    private func page(_ site: WebSite, next: String, error: String?, status: HTTPResponse.Status) throws -> Response {
        try site.page(
            title: "Sign in", body: ShellTemplates.set.render("signin", Model(next: next, error: error)),
            path: "/signin", status: status)
    }

    struct Model {
        var next: String
        var error: String?
    }

    /// Where to go after signing in: a path on this server, never another site (`//evil`, `https://…`).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"),
            !next.contains(where: { $0.isNewline || $0 == "\\" })
        else { return "/" }
        return next
    }
}
