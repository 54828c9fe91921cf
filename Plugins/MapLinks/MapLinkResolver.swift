import MapLinkCore
import MeridianCore

/// Turns a `MapLinkRequest` into a link: the one code path behind the HTTP routes and the CLI.
package struct MapLinkResolver: Sendable {
    /// Style and mode used when the request names none.
    package var defaults: MapLinkBuilder
    /// The flyers plugin's lookup, when it is configured.
    package var flyers: (any FlyerPlaceLookup)?
    /// The latest fused position, for `from=here` and for the side of a flyer's area to head for.
    package var currentPosition: Coordinate?

    package init(defaults: MapLinkBuilder, flyers: (any FlyerPlaceLookup)? = nil, currentPosition: Coordinate? = nil) {
        self.defaults = defaults
        self.flyers = flyers
        self.currentPosition = currentPosition
    }

    /// Builds the link; throws `MapLinkError` for bad input, or whatever the flyer lookup throws.
    package func link(for request: MapLinkRequest) async throws -> MapLinkResult {
        let builder = try request.builder(defaults: defaults)
        let source = try request.source(current: currentPosition)
        let destination: MapDestination
        if let direct = try request.destination() {
            destination = direct
        } else if let id = request.flyer {
            destination = try await flyerDestination(id: id, name: request.name, origin: source ?? currentPosition)
        } else {
            throw MapLinkError.missingDestination
        }
        let url = try builder.url(to: destination, from: source)
        return MapLinkResult(
            url: url, style: builder.style, mode: builder.mode.modeName,
            destination: .init(destination, flyerId: request.flyer), from: source)
    }

    private func flyerDestination(id: String, name: String?, origin: Coordinate?) async throws -> MapDestination {
        guard let flyers else { throw MapLinkError.flyerLookupUnavailable }
        guard var place = try await flyers.place(forFlyer: id, from: origin) else {
            throw MapLinkError.unknownFlyer(id)
        }
        if let name { place.title = name }
        return .flyer(place)
    }
}
