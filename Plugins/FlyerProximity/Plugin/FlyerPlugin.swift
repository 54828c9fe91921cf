import Foundation
import MapLinks
import MeridianCore
import MeridianHTTP
import MeridianStore

/// The `flyers` consumer: proximity search over local flyers, enter/exit events as the
/// user moves, CRUD and search under `/v1/flyers`, and flyer places for map links.
public final class FlyerPlugin: LocationConsumer, HTTPRoutes {
    public static let registration = ConsumerType(
        type: "flyers",
        summary: "Local flyers (points and areas): nearest-first search with exact WGS84 distances, enter/exit events, import/export",
        options: FlyerOptions.info,
        commands: [FlyersCommand.self],
        offerToCommands: { resources in
            resources[StoredFlyerPlacesKey.self] = { store in CatalogPlaceLookup(index: try FlyerCatalog(store: store).index) }
        },
        make: { options, context in
            let decoded = try FlyerOptions.decode(options)
            let catalog: FlyerCatalog
            do {
                catalog = try FlyerCatalog(store: try context.store())
            } catch let error as FlyerCatalogError {
                throw PluginStartError(plugin: context.id, message: "cannot load the flyers: \(error)")
            }
            let plugin = FlyerPlugin(catalog: catalog, options: decoded, context: context)
            context.resources[FlyerPlaceLookupKey.self] = CatalogPlaceLookup(index: catalog.index)
            return plugin
        }
    )

    public let id: String
    public let catalog: FlyerCatalog
    public let options: FlyerOptions
    public let watcher: ProximityWatcher
    let search: NearbySearch
    let context: PluginContext

    public init(catalog: FlyerCatalog, options: FlyerOptions, context: PluginContext) {
        id = context.id
        self.catalog = catalog
        self.options = options
        self.context = context
        watcher = ProximityWatcher(index: catalog.index, events: context.events, moveThreshold: options.moveThreshold)
        search = NearbySearch(index: catalog.index, presenter: FlyerPresenter(units: context.units, mapStyle: options.mapStyle))
    }

    public func consume(_ fix: Fix) async {
        watcher.update(fix)
    }
}

/// Flyer places for map links: the point, or the nearest boundary point of an area.
public struct CatalogPlaceLookup: FlyerPlaceLookup {
    public let index: FlyerIndex

    public init(index: FlyerIndex) {
        self.index = index
    }

    public func place(forFlyer id: String, from origin: Coordinate?) async throws -> FlyerPlace? {
        index.target(id: id, from: origin).map { FlyerPlace(coordinate: $0.coordinate, title: $0.flyer.title, address: $0.flyer.address) }
    }
}
