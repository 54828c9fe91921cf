import Foundation
import MapLinkCore
import MeridianCLI
import MeridianCore
import MeridianHTTP
import MeridianStore
import ServiceLifecycle

/// The `flyers` consumer: proximity search over local flyers, enter/exit events as the
/// user moves, CRUD and search under `/v1/flyers`, and flyer places for map links.
///
/// The flyers live in the SpatiaLite store, or with the option `database: postgres://…` in
/// PostGIS. Either way the in-memory index is a cache that follows every writer (`FlyerChangeFeed`).
package final class FlyerPlugin: LocationConsumer, HTTPRoutes, DatabaseBacked {
    package static let registration = ConsumerType(
        type: "flyers",
        summary:
            "Local flyers (points and areas): nearest-first search with exact WGS84 distances, enter/exit events, import/export",
        options: FlyerOptions.info,
        make: { options, context in
            let decoded = try FlyerOptions.decode(options)
            let catalog: FlyerCatalog
            if let location = decoded.postgres {
                let store = PostGISFlyerStore(
                    location: location, connections: decoded.databaseConnections, logger: context.logger)
                catalog = FlyerCatalog(store: store, logger: context.logger)
            } else {
                do {
                    catalog = try FlyerCatalog(store: try context.store(), logger: context.logger)
                } catch let error as FlyerStoreError {
                    throw PluginStartError(plugin: context.id, message: "cannot load the flyers: \(error)")
                }
            }
            let plugin = FlyerPlugin(catalog: catalog, options: decoded, context: context)
            context.resources[FlyerPlaceLookupKey.self] = CatalogPlaceLookup(catalog: catalog)
            return plugin
        }
    )

    /// `meridian flyers`, and the flyer places of a store for `meridian maplink --flyer`.
    package static let commandLine = PluginCommands([FlyersCommand.self]) { resources in
        resources[StoredFlyerPlacesKey.self] = { store in
            StoredPlaceLookup(store: try SpatiaLiteFlyerStore(store: store))
        }
    }

    package let id: String
    package let catalog: FlyerCatalog
    package let options: FlyerOptions
    package let watcher: ProximityWatcher
    /// With `fences: per-device` or `both`: every device's own fixes for the watcher.
    let deviceFences: DeviceFences?
    let search: NearbySearch
    let context: PluginContext

    package init(catalog: FlyerCatalog, options: FlyerOptions, context: PluginContext) {
        id = context.id
        self.catalog = catalog
        self.options = options
        self.context = context
        let watcher = ProximityWatcher(
            index: catalog.proximitySource, events: context.events, moveThreshold: options.moveThreshold)
        self.watcher = watcher
        deviceFences =
            options.fences.followsDevices
            ? context.resources[ProviderFixTap.Key.self].map {
                DeviceFences(tap: $0, watcher: watcher, catalog: catalog)
            } : nil
        search = NearbySearch(presenter: FlyerPresenter(units: context.units, mapStyle: options.mapStyle))
    }

    /// Judges the fix's enter and exit events once the catalogue is in the cache (a fix that comes while it is
    /// being built waits, with the consumer's buffer, instead of meeting an empty cache).
    package func consume(_ fix: Fix) async {
        guard options.fences.followsFused else { return }
        await catalog.untilLoaded()
        watcher.update(fix)
    }

    /// Follows the store's changes until shutdown.
    package func run() async throws {
        let feed = FlyerChangeFeed(catalog: catalog, logger: context.logger)
        await cancelWhenGracefulShutdown { [catalog, logger = context.logger, deviceFences] in
            await withTaskGroup(of: Void.self) { group in
                if let deviceFences { group.addTask { await deviceFences.run() } }
                do {
                    try await catalog.prepare()
                } catch {
                    logger.error(
                        "flyers: the search index cannot be built: \(error); SpatiaLite answers searches meanwhile")
                }
                await feed.run()
                logger.debug("flyers: the change feed ended")
                group.cancelAll()
            }
        }
        context.logger.debug("flyers: closing the store")
        await catalog.store.close()
        context.logger.debug("flyers: stopped")
    }

    package var databaseState: DatabaseState { catalog.report }
}

/// Flyer places for map links: the point, or the nearest boundary point of an area.
package struct CatalogPlaceLookup: FlyerPlaceLookup {
    package let catalog: FlyerCatalog

    package init(catalog: FlyerCatalog) {
        self.catalog = catalog
    }

    package func place(forFlyer id: String, from origin: Coordinate?) async throws -> FlyerPlace? {
        try await catalog.flyer(id: id).flatMap { FlyerPlace($0, from: origin) }
    }
}

/// Flyer places read straight from a store, for commands.
struct StoredPlaceLookup: FlyerPlaceLookup {
    let store: any FlyerStore

    func place(forFlyer id: String, from origin: Coordinate?) async throws -> FlyerPlace? {
        try await store.flyer(id: id).flatMap { FlyerPlace($0, from: origin) }
    }
}

extension FlyerPlace {
    /// Where to head for `flyer` from `origin` (the nearest boundary point of an area).
    init?(_ flyer: Flyer, from origin: Coordinate?) {
        guard let prepared = PreparedFlyer(flyer) else { return nil }
        self.init(coordinate: prepared.target(from: origin), title: flyer.title, address: flyer.address)
    }
}
