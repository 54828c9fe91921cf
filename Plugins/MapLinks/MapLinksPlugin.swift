import Hummingbird
import MapLinkCore
import MeridianCLI
import MeridianCore
import MeridianHTTP

/// The `map-links` consumer: serves navigation links under `/v1/maplinks`.
///
/// It keeps no state of its own; `from=here` and flyer areas use the host's latest fused fix.
package struct MapLinksPlugin: LocationConsumer, HTTPRoutes {
    package static let registration = ConsumerType(
        type: "map-links",
        summary:
            "Builds links that open Apple Maps, Google Maps, OpenStreetMap or a geo: URI at a coordinate, address, place or flyer",
        options: [
            OptionInfo(
                "style", MapStyle.allCases.map(\.rawValue).joined(separator: "|"), default: MapStyle.apple.rawValue,
                "the link style used when a request names none"),
            OptionInfo(
                "mode", (TravelMode.allCases.map(\.rawValue) + [TravelMode.showWord]).joined(separator: "|"),
                default: "walking (show for geo and osm)",
                "the travel mode used when a request names none; show gives a link to the place without directions")
        ],
        make: { options, context in
            let decoded = try options.decode(MapLinksOptions.self)
            let defaults = try decoded.builder(options)
            context.resources[MapLinkDefaultsKey.self] = defaults
            return MapLinksPlugin(defaults: defaults, context: context)
        }
    )

    /// `meridian maplink`.
    package static let commandLine = PluginCommands([MapLinkCommand.self])

    package let id: String
    /// Style and mode used when a request names none.
    package let defaults: MapLinkBuilder
    private let context: PluginContext

    package init(defaults: MapLinkBuilder, context: PluginContext) {
        self.id = context.id
        self.defaults = defaults
        self.context = context
    }

    /// Fixes reach this plugin through `context.position`; nothing to do per fix.
    package func consume(_ fix: Fix) async {}

    /// A resolver seeing the current position and (when configured) the flyers plugin's lookup.
    package var resolver: MapLinkResolver {
        MapLinkResolver(
            defaults: defaults, flyers: context.resources[FlyerPlaceLookupKey.self],
            currentPosition: context.position.latestPosition)
    }

    package func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        let group = v1.group("maplinks")
        group.get { request, _ in
            try request.allowQuery(["to", "address", "name", "near", "from", "accuracy", "mode", "style"])
            return try await self.link(
                MapLinkRequest(
                    to: request.query("to"), address: request.query("address"),
                    name: request.query("name"), near: request.query("near"),
                    from: request.query("from"), accuracy: request.query("accuracy"),
                    mode: request.query("mode"), style: request.query("style")))
        }
        group.get("flyer/:id") { request, context in
            try request.allowQuery(["name", "from", "mode", "style"])
            let id = try context.parameters.decoded("id")
            return try await self.link(
                MapLinkRequest(
                    flyer: id, name: request.query("name"), from: request.query("from"),
                    mode: request.query("mode"), style: request.query("style")))
        }
    }

    /// Builds the link for one request, with `MapLinkError`s as API errors.
    func link(_ request: MapLinkRequest) async throws -> JSONResponse<MapLinkResult> {
        do {
            return JSONResponse(try await resolver.link(for: request))
        } catch let error as MapLinkError {
            throw APIError(error)
        }
    }
}

extension APIError {
    /// The HTTP answer for a map-link error: 404 for unknown or unavailable flyers, 409 without a fix, else 400.
    init(_ error: MapLinkError) {
        switch error {
        case .unknownFlyer: self = .notFound(error.description)
        case .flyerLookupUnavailable: self = .notFound(error.description, code: "flyers_not_configured")
        case .noCurrentPosition: self = .conflict(error.description, code: "no_fix")
        default: self = .badRequest(error.description)
        }
    }
}
