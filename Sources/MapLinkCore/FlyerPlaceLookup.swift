import MeridianCore
import MeridianStore

/// Where a stored flyer is, as a map-link destination.
///
/// The flyers plugin implements this and stores it in `PluginContext.resources`
/// under `FlyerPlaceLookupKey`; map-links uses it for `GET /v1/maplinks/flyer/{id}`.
package protocol FlyerPlaceLookup: Sendable {
    /// The destination for flyer `id` as seen from `origin` (for an area: the nearest boundary
    /// point to `origin`, or its representative point when `origin` is nil); nil when no such flyer exists.
    func place(forFlyer id: String, from origin: Coordinate?) async throws -> FlyerPlace?
}

/// A flyer's navigation target: the point to go to, its title and (when known) its address.
package struct FlyerPlace: Sendable, Equatable {
    /// The point to navigate to (the flyer's location, or the nearest point of its area).
    package var coordinate: Coordinate
    /// The flyer's title, used as the place name in links.
    package var title: String
    /// The flyer's postal address, when it has one.
    package var address: String?

    package init(coordinate: Coordinate, title: String, address: String? = nil) {
        self.coordinate = coordinate
        self.title = title
        self.address = address
    }
}

/// The `Resources` key under which the flyers plugin offers its `FlyerPlaceLookup`.
package enum FlyerPlaceLookupKey: ResourceKey {
    package typealias Value = any FlyerPlaceLookup
}

/// The key under which the flyers plugin offers commands (`PluginCommands.offer`) the flyer places of a
/// store (for `meridian maplink --flyer`); it throws when the flyers cannot be loaded.
package enum StoredFlyerPlacesKey: ResourceKey {
    package typealias Value = @Sendable (Store) throws -> any FlyerPlaceLookup
}
