import ArgumentParser
import MapLinkCore
import MeridianCLI
import MeridianCore

/// `meridian maplink`: prints a link that opens a maps app at a destination.
struct MapLinkCommand: ResourceUsingCommand {
    static let configuration = CommandConfiguration(
        commandName: "maplink",
        abstract: "Print a map link to a coordinate, an address, a named place or a flyer.",
        discussion: """
            Give exactly one destination: --to LAT,LON, --address TEXT, --flyer ID, or --name TEXT alone \
            (a place to search for). Without --from the maps app starts from the user's location. A --name for \
            --to or --flyer, or a --near, shows the place (mode show) unless --mode or --from asks for directions, \
            which cannot carry them (a note on stderr says so).
            Style and mode default to the map-links consumer's options in the configuration (apple, walking \
            without one). --flyer reads the flyer store (--db, MERIDIAN_DB or store.path).
            Examples:
              meridian maplink --to 48.8584,2.2945 --name "Tour Eiffel"
              meridian maplink --address "1 Infinite Loop, Cupertino" --style google --mode driving
              meridian maplink --to 52.52,13.405 --style geo --accuracy 12
              meridian maplink --flyer market-42 --mode show
            """
    )

    @Option(parsing: .unconditional, help: "Destination coordinate as LAT,LON in decimal degrees.")
    var to: String?

    @Option(help: "Destination postal address.")
    var address: String?

    @Option(
        help: "Destination flyer id: its point (for an area, the boundary point nearest --from), title and address.")
    var flyer: String?

    @Option(help: "Place name: a label for --to or --flyer, or on its own a place to search for.")
    var name: String?

    @Option(parsing: .unconditional, help: "With --name alone: search near this LAT,LON.")
    var near: String?

    @Option(parsing: .unconditional, help: "Start point as LAT,LON (default: the user's current location).")
    var from: String?

    @Option(parsing: .unconditional, help: "Horizontal accuracy of --to in metres (used by the geo style).")
    var accuracy: String?

    @Option(
        help: "driving, walking, transit, cycling, or show (no directions). Default: walking, or show for geo and osm.")
    var mode: String?

    @Option(help: "apple, apple-legacy, google, geo or osm.")
    var style: String?

    @Flag(help: "Print the link and its destination as JSON.")
    var json = false

    @OptionGroup var store: StoreLocationOptions

    /// `resources` hold the flyer places the flyers plugin offers (`StoredFlyerPlacesKey`), for --flyer.
    func run(with resources: Resources) async throws {
        try await reportingFailures {
            let config = try store.loadConfig()
            let request = MapLinkRequest(
                to: to, address: address, flyer: flyer, name: name, near: near, from: from,
                accuracy: accuracy, mode: mode, style: style)
            let resolver = MapLinkResolver(defaults: try defaults(config), flyers: try flyerLookup(config, resources))
            let result: MapLinkResult
            do {
                result = try await resolver.link(for: request)
            } catch let error as MapLinkError {
                throw CommandFailure(error.description, code: error.isBadInput ? CommandFailure.usage : 1)
            }
            print(json ? try MeridianJSON.string(result) : result.url)
            if request.namesPlace, !(result.mode == TravelMode.showWord && result.style.showsPlaceDetails) {
                let labelsPoint = name != nil && (to != nil || flyer != nil)
                let given = [labelsPoint ? "--name" : nil, near == nil ? nil : "--near"].compactMap { $0 }.joined(
                    separator: " and ")
                Standard.error(
                    "meridian: note: a \(result.style.rawValue) link with mode \(result.mode) cannot carry \(given); "
                        + "it is left out (use --mode show with --style apple or apple-legacy to keep it)")
            }
        }
    }

    /// The configured map-links style and mode, or apple and walking.
    private func defaults(_ config: MeridianConfig?) throws -> MapLinkBuilder {
        guard let spec = config?.consumers.first(where: { $0.type == MapLinksPlugin.registration.type }) else {
            return MapLinkBuilder()
        }
        do {
            return try spec.options.decode(MapLinksOptions.self).builder(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }

    /// The flyer store's places (offered by the flyers plugin), opened only when a flyer is asked for.
    private func flyerLookup(_ config: MeridianConfig?, _ resources: Resources) throws -> (any FlyerPlaceLookup)? {
        guard flyer != nil, let places = resources[StoredFlyerPlacesKey.self] else { return nil }
        let store = try store.openExistingStore(config)
        do {
            return try places(store)
        } catch {
            throw CommandFailure("cannot load the flyers: \(error)")
        }
    }
}
