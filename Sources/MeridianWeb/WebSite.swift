import Foundation
import HTTPTypes
import Hummingbird
import MeridianCore
import MeridianHTTP

/// What the web shell gives every page: the user's units and time zone, the map settings, and rendering in
/// the common layout with the security headers (Content-Security-Policy and friends).
public struct WebSite: Sendable {
    public let format: PageFormat
    /// True when Leaflet is installed and served under `/assets/leaflet/`: maps are drawn in the browser.
    public let leafletAvailable: Bool
    let tiles: MapView.Tiles?
    let navigation: [NavigationLink]
    /// True when a token is configured, so the layout offers to sign out.
    let signedIn: Bool
    let assets: ShellAssets
    let securityHeaders: HTTPFields

    public var units: UnitSystem { format.units }
    public var timeZone: TimeZone { format.timeZone }

    init(
        format: PageFormat, web: WebSettings, leafletAvailable: Bool, navigation: [NavigationLink], signedIn: Bool,
        assets: ShellAssets
    ) {
        self.format = format
        self.leafletAvailable = leafletAvailable
        tiles = web.tileURL.map { MapView.Tiles(url: $0, attribution: web.tileAttribution) }
        self.navigation = navigation
        self.signedIn = signedIn
        self.assets = assets
        securityHeaders = Self.securityHeaders(tileSource: web.tileSource)
    }

    /// The headers of every page: only the service's own scripts, styles and connections (and the tile server's
    /// images when configured), no framing, no referrer sent to other sites (tile servers included; the browser then
    /// still names this origin on its own form posts, which the cross-site guard needs), nothing cached.
    static func securityHeaders(tileSource: String?) -> HTTPFields {
        let images = ["'self'", "data:"] + (tileSource.map { [$0] } ?? [])
        let policy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src \(images.joined(separator: " "))",
            "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"
        ].joined(separator: "; ")
        return [
            .contentSecurityPolicy: policy,
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "same-origin",
            .cacheControl: "no-store"
        ]
    }

    /// A whole page: `body` (HTML rendered from the caller's templates) in the layout. `path` marks the current
    /// navigation entry.
    public func page(title: String, body: String, path: String, status: HTTPResponse.Status = .ok) throws -> Response {
        let navigation = self.navigation.map { link in
            NavigationItem(
                label: link.label, href: link.path,
                current: link.path == "/" ? path == "/" : (path == link.path || path.hasPrefix(link.path + "/")))
        }
        let layout = Layout(
            title: title, body: body, navigation: navigation, signedIn: signedIn,
            leaflet: leafletAvailable, css: assets.cssURL, script: assets.scriptURL,
            icon: assets.iconURL, tiles: tiles != nil, tileAttribution: tiles?.attribution)
        return html(try ShellTemplates.set.render("layout", layout), status: status)
    }

    /// A piece of a page (a refreshed section of the "now" page).
    public func fragment(_ html: String) -> Response {
        self.html(html, status: .ok)
    }

    /// 303 to `location` (a path on this server), after a form was handled.
    public func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// A `<script type="application/json">` block holding `view` for `app.js`, with the basemap and units.
    public func mapData(_ view: MapView, id: String) -> String {
        var view = view
        view.tiles = tiles
        view.units = units.rawValue
        return "<script type=\"application/json\" id=\"\(id)\">\(view.json)</script>"
    }

    func html(_ text: String, status: HTTPResponse.Status) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    struct NavigationItem {
        var label: String
        var href: String
        var current: Bool
    }

    struct Layout {
        var title: String
        var body: String
        var navigation: [NavigationItem]
        var signedIn: Bool
        var leaflet: Bool
        var css: String
        var script: String
        var icon: String
        var tiles: Bool
        var tileAttribution: String?
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

extension WebSite {
    /// A site with no server around it, for tools that render pages directly (the benchmark of `scripts/bench-runs`).
    public static func standalone(
        units: UnitSystem, timeZone: TimeZone, web: WebSettings = WebSettings(),
        leafletAvailable: Bool = true
    ) -> WebSite {
        WebSite(
            format: PageFormat(timeZone: timeZone, units: units), web: web, leafletAvailable: leafletAvailable,
            navigation: [NavigationLink("Now", path: "/")], signedIn: false, assets: ShellAssets())
    }
}
