import Hummingbird
import MeridianHTTP

/// Implemented by plugins that show pages in the browser, as `HTTPRoutes` is by plugins that serve the API.
/// The web shell finds every configured plugin that conforms, puts its links in the navigation bar, mounts
/// its pages at the root and shows its sections on the "now" page (`/`).
public protocol WebPages: Sendable {
    /// Links the plugin adds to the navigation bar, in order.
    var webNavigation: [NavigationLink] { get }
    /// Adds the plugin's pages (paths from the root, such as `runs/{id}`) to `pages`, rendering them with `site`.
    func addPages(to pages: RouterGroup<MeridianRequestContext>, site: WebSite)
    /// The plugin's sections of the "now" page, as HTML. A section whose root element carries
    /// `data-refresh="/path"` and `data-refresh-on="fix,run.*"` is fetched again from that path when one of
    /// those events arrives on `/v1/events`.
    func nowSections(site: WebSite) async -> [String]
    /// The plugin's CSS rules for its pages, served after the shell's in `/assets/app.css` (none by default).
    var webStyle: String { get }
}

extension WebPages {
    public var webStyle: String { "" }
}

/// One entry of the navigation bar.
public struct NavigationLink: Sendable, Equatable {
    public var label: String
    /// The page's path, e.g. `/runs`; also marks the entry current on the pages below it.
    public var path: String

    public init(_ label: String, path: String) {
        self.label = label
        self.path = path
    }
}
