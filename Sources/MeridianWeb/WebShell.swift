import Foundation
import Hummingbird
import Logging
import MeridianCore
import MeridianHTTP

/// The web app for people, served by `meridian serve` beside the API: the layout, the "now" page, sign-in,
/// the static assets (Leaflet from the system) and the pages every configured plugin contributes (`WebPages`).
public struct WebShell: BrowserSite {
    let host: PluginHost
    let web: WebSettings
    let format: PageFormat
    let leaflet: LeafletFiles
    let tokenConfigured: Bool

    /// The shell for `host`'s plugins with the configuration's units, time zone, `web:` settings and token.
    public init(
        host: PluginHost, config: MeridianConfig, leafletDirectory: String = WebShell.leafletDirectory,
        logger: Logger
    ) {
        self.host = host
        web = config.web
        format = PageFormat(timeZone: config.timeZone, units: config.units)
        leaflet = LeafletFiles(directory: leafletDirectory, logger: logger)
        tokenConfigured = !(config.http.token ?? "").isEmpty
    }

    /// Where Debian's `libjs-leaflet` installs Leaflet.
    public static let leafletDirectory = "/usr/share/javascript/leaflet"

    public var publicPaths: [String] { ["/signin", "/assets/"] }
    public var signInPath: String { "/signin" }

    /// The plugins that show pages, providers first, each in configuration order.
    var pagePlugins: [any WebPages] {
        let plugins: [Any] = host.providers.map(\.provider) + host.consumers.map(\.consumer)
        return plugins.compactMap { $0 as? any WebPages }
    }

    /// The shell's files, the stylesheet with every page plugin's rules.
    var assets: ShellAssets { ShellAssets(styles: pagePlugins.map(\.webStyle)) }

    /// The site handed to every page: navigation ("Now" first, then each plugin's links) and settings.
    var site: WebSite {
        let navigation = [NavigationLink("Now", path: "/")] + pagePlugins.flatMap(\.webNavigation)
        return WebSite(
            format: format, web: web, leafletAvailable: leaflet.isAvailable, navigation: navigation,
            signedIn: tokenConfigured, assets: assets)
    }

    public func addRoutes(to router: Router<MeridianRequestContext>, sessions: BrowserSessions?) {
        let site = self.site
        assets.add(to: router)
        leaflet.add(to: router)
        let pages = router.group().add(middleware: PageErrorMiddleware(site: site))
        SignInPage(sessions: sessions).add(to: pages, site: site)
        let plugins = pagePlugins
        NowPage(host: host, pages: plugins).add(to: pages, site: site)
        for plugin in plugins {
            plugin.addPages(to: pages, site: site)
        }
    }
}
