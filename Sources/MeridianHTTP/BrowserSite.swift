import Hummingbird

/// Pages for people, served beside the API by the same server (the web shell of `MeridianWeb`).
/// `MeridianServer` mounts it at the root; with a token configured, browsers sign in to it once.
public protocol BrowserSite: Sendable {
    /// Adds the pages, their assets and the sign-in routes. `sessions` is `nil` when no token is configured
    /// (every request is then allowed, on loopback only).
    func addRoutes(to router: Router<MeridianRequestContext>, sessions: BrowserSessions?)
    /// Path prefixes served without signing in: the sign-in page and the static assets it needs.
    var publicPaths: [String] { get }
    /// Where a browser asking for a page without a session is sent (its path is added as `?next=`).
    var signInPath: String { get }
}

extension BrowserSite {
    /// True when `path` is served without signing in.
    func isPublic(_ path: String) -> Bool {
        publicPaths.contains { prefix in prefix.hasSuffix("/") ? path.hasPrefix(prefix) : path == prefix }
    }
}
