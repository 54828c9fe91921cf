/// `web:` section: how the browser pages draw maps.
public struct WebSettings: Sendable, Decodable, Equatable {
    /// A tile URL template such as `https://tile.openstreetmap.org/{z}/{x}/{y}.png`; without one, maps are
    /// drawn on a plain background and the browser fetches nothing from elsewhere.
    public var tileURL: String?
    /// The attribution the tile server asks for, shown on the map (plain text).
    public var tileAttribution: String?

    public init(tileURL: String? = nil, tileAttribution: String? = nil) {
        self.tileURL = tileURL
        self.tileAttribution = tileAttribution
    }

    enum CodingKeys: String, CodingKey {
        case tileURL = "tile_url"
        case tileAttribution = "tile_attribution"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tileURL = try container.decodeIfPresent(String.self, forKey: .tileURL)
        tileAttribution = try container.decodeIfPresent(String.self, forKey: .tileAttribution)
    }

    /// The origin the browser fetches tiles from, as a Content-Security-Policy source (`https://tile.example.org`,
    /// or `https://*.tile.example.org` for a `{s}` subdomain template); `nil` without a tile URL.
    public var tileSource: String? {
        guard let tileURL, let schemeEnd = tileURL.range(of: "://") else { return nil }
        let rest = tileURL[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        return tileURL[..<schemeEnd.upperBound] + authority.replacingOccurrences(of: "{s}", with: "*")
    }

    /// Checks `tile_url`: an http or https URL with `{z}`, `{x}` and `{y}` and nothing a page could trip over.
    /// Returns a message saying what is wrong, or `nil` when the URL is usable.
    public static func problem(withTileURL url: String) -> String? {
        let example = "such as https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return "'\(url)' is not an http or https URL; give a tile URL template \(example)"
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !url.contains(placeholder) {
            return "'\(url)' has no \(placeholder); give a tile URL template \(example)"
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&()*+,;=%{}")
        if let bad = url.first(where: { !allowed.contains($0) }) {
            return "'\(url)' contains '\(bad)', which a URL cannot hold; percent-encode it"
        }
        let authority = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains("{z}"), !authority.contains("{x}"),
            !authority.contains("{y}")
        else {
            return "'\(url)' needs a plain host name before the path; give a tile URL template \(example)"
        }
        return nil
    }
}
