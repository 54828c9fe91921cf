import MapLinkCore
import MeridianCore

/// The `map-links` consumer's configuration.
package struct MapLinksOptions: Decodable, Sendable, Equatable {
    /// The style used when a request names none.
    package var style: MapStyle = .apple
    /// The mode used when a request names none, as text (a travel mode or `show`); nil: the style's default.
    package var mode: String?

    enum CodingKeys: String, CodingKey { case style, mode }

    package init(style: MapStyle = .apple, mode: String? = nil) {
        self.style = style
        self.mode = mode
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = try container.decodeIfPresent(MapStyle.self, forKey: .style) ?? .apple
        mode = try container.decodeIfPresent(String.self, forKey: .mode)
    }

    /// The default builder, validated; errors name the option.
    package func builder(_ options: PluginOptions) throws(ConfigError) -> MapLinkBuilder {
        do {
            guard let mode else { return MapLinkBuilder(style: style) }
            let builder = MapLinkBuilder(style: style, mode: try TravelMode.parse(mode))
            try builder.validate()
            return builder
        } catch {
            throw options.error(key: "mode", error.description)
        }
    }
}
