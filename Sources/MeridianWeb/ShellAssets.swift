import Hummingbird
import MeridianHTTP

/// The shell's static files, served from memory under `/assets/`. Their URLs carry a hash of the content
/// (`?v=…`), so browsers may keep them for a day and still never use a stale copy after an upgrade.
struct ShellAssets: Sendable {
    struct Asset: Sendable {
        var name: String
        var contentType: String
        var text: String
        var version: String

        init(name: String, contentType: String, text: String) {
            self.name = name
            self.contentType = contentType
            self.text = text
            version = Self.fnv1a(text)
        }

        var url: String { "/assets/\(name)?v=\(version)" }

        /// 64-bit FNV-1a of the UTF-8 text, in hex: a content fingerprint for cache busting, not security.
        static func fnv1a(_ text: String) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return String(hash, radix: 16)
        }
    }

    /// The shell's stylesheet followed by the plugins' `styles` (`WebPages.webStyle`).
    let css: Asset
    let script = Asset(name: "app.js", contentType: "text/javascript; charset=utf-8", text: ShellScript.javascript)
    let icon = Asset(name: "icon.svg", contentType: "image/svg+xml", text: Self.iconSVG)

    init(styles: [String] = []) {
        css = Asset(name: "app.css", contentType: "text/css; charset=utf-8", text: ([ShellStyle.css] + styles).joined())
    }

    var cssURL: String { css.url }
    var scriptURL: String { script.url }
    var iconURL: String { icon.url }

    func add(to router: Router<MeridianRequestContext>) {
        for asset in [css, script, icon] {
            router.get("assets/\(asset.name)") { _, _ in
                Response(
                    status: .ok,
                    headers: [
                        .contentType: asset.contentType, .cacheControl: "public, max-age=86400",
                        .xContentTypeOptions: "nosniff"
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: asset.text)))
            }
        }
    }

    /// A meridian line on a globe with a route crossing it.
    static let iconSVG = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#0a7150"/><path d="M16 2.5c-4.5 4-4.5 23 0 27" fill="none" stroke="#d6f5e6" stroke-width="2"/><path d="M6 21c4-1 6-7 10-7s5 4 10 2" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/><circle cx="26" cy="16" r="2.4" fill="#fee08b"/></svg>
        """#
}
