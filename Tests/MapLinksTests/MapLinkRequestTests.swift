import Foundation
import MeridianCore
import Testing

@testable import MapLinkCore
@testable import MapLinks

/// A flyer store stand-in: the real lookup lives in FlyerProximity, which depends on this module.
struct FixedFlyers: FlyerPlaceLookup {
    var places: [String: FlyerPlace]
    let origins = OriginLog()

    func place(forFlyer id: String, from origin: Coordinate?) async throws -> FlyerPlace? {
        await origins.append(origin)
        return places[id]
    }
}

actor OriginLog {
    private(set) var values: [Coordinate?] = []
    func append(_ origin: Coordinate?) { values.append(origin) }
}

@Suite("MapLinkRequest and MapLinkResolver")
struct MapLinkRequestTests {
    let resolver = MapLinkResolver(defaults: MapLinkBuilder())

    @Test("a coordinate with a name and no mode shows the named place; with a mode it gets directions")
    func coordinate() async throws {
        let result = try await resolver.link(for: MapLinkRequest(to: "48.8584, 2.2945", name: "Tour Eiffel"))
        #expect(result.url == "https://maps.apple.com/place?coordinate=48.8584,2.2945&name=Tour%20Eiffel")
        #expect(result.style == .apple && result.mode == "show" && result.from == nil)
        #expect(
            result.destination == .init(kind: "coordinate", latitude: 48.8584, longitude: 2.2945, name: "Tour Eiffel"))
        let walking = try await resolver.link(
            for: MapLinkRequest(to: "48.8584, 2.2945", name: "Tour Eiffel", mode: "walking"))
        #expect(walking.url == "https://maps.apple.com/directions?destination=48.8584,2.2945&mode=walking")
        let unnamed = try await resolver.link(for: MapLinkRequest(to: "48.8584, 2.2945"))
        #expect(unnamed.url == "https://maps.apple.com/directions?destination=48.8584,2.2945&mode=walking")
        let from = try await resolver.link(
            for: MapLinkRequest(to: "48.8584, 2.2945", name: "Tour Eiffel", from: "48.85,2.35"))
        #expect(from.mode == "walking", "a start point asks for directions")
    }

    @Test("mode show, styles and the style's own default mode")
    func modes() async throws {
        #expect(
            try await resolver.link(for: MapLinkRequest(to: "1,2", mode: "show")).url
                == "https://maps.apple.com/place?coordinate=1,2")
        #expect(try await resolver.link(for: MapLinkRequest(to: "1,2", style: "geo")).url == "geo:1,2")
        #expect(
            try await resolver.link(for: MapLinkRequest(to: "1,2", accuracy: "4", style: "geo")).url == "geo:1,2;u=4")
        let cycling = MapLinkResolver(defaults: MapLinkBuilder(style: .google, mode: .cycling))
        #expect(try await cycling.link(for: MapLinkRequest(to: "1,2")).url.hasSuffix("travelmode=bicycling"))
        // apple-legacy cannot cycle: without an explicit mode it falls back to its own default.
        #expect(try await cycling.link(for: MapLinkRequest(to: "1,2", style: "apple-legacy")).url.hasSuffix("dirflg=w"))
        let showing = MapLinkResolver(defaults: MapLinkBuilder(style: .apple, mode: nil))
        #expect(
            try await showing.link(for: MapLinkRequest(to: "1,2")).url == "https://maps.apple.com/place?coordinate=1,2")
        #expect(
            try await showing.link(for: MapLinkRequest(to: "1,2", style: "osm")).url.hasPrefix(
                "https://www.openstreetmap.org/?mlat=1&mlon=2"))
        #expect(try await resolver.link(for: MapLinkRequest(to: "1,2", style: "osm")).mode == "show")
        #expect(
            try await resolver.link(for: MapLinkRequest(name: "Bakery", near: "1,2", mode: "show")).url
                == "https://maps.apple.com/search?query=Bakery&center=1,2")
    }

    static let invalid: [(MapLinkRequest, MapLinkError)] = [
        (MapLinkRequest(), .missingDestination),
        (MapLinkRequest(to: "1,2", address: "x"), .conflictingDestinations(["to", "address"])),
        (MapLinkRequest(to: "1,2", flyer: "f1"), .conflictingDestinations(["to", "flyer"])),
        (
            MapLinkRequest(address: "x", name: "y"),
            .misplaced(parameter: "name", allowedWith: "'to', 'flyer' or on its own")
        ),
        (MapLinkRequest(address: "x", accuracy: "3"), .misplaced(parameter: "accuracy", allowedWith: "'to'")),
        (MapLinkRequest(to: "1,2", near: "1,2"), .misplaced(parameter: "near", allowedWith: "'name' on its own")),
        (MapLinkRequest(to: "91,0"), .invalidCoordinate(parameter: "to", .latitudeOutOfRange(91))),
        (MapLinkRequest(to: "0,180.0000001"), .invalidCoordinate(parameter: "to", .longitudeOutOfRange(180.0000001))),
        (MapLinkRequest(to: "1;2"), .invalidCoordinate(parameter: "to", .unparsable("1;2"))),
        (
            MapLinkRequest(to: "1,2", from: "inf,0"),
            .invalidCoordinate(parameter: "from", .notFinite(name: "latitude", value: .infinity))
        ),
        (MapLinkRequest(name: "x", near: "1,x"), .invalidCoordinate(parameter: "near", .unparsable("1,x"))),
        (MapLinkRequest(to: "1,2", accuracy: "-3"), .invalidAccuracy("-3")),
        (MapLinkRequest(to: "1,2", accuracy: "3m"), .invalidAccuracy("3m")),
        (MapLinkRequest(to: "1,2", mode: "flying"), .unknownMode("flying")),
        (MapLinkRequest(to: "1,2", style: "bing"), .unknownStyle("bing")),
        (
            MapLinkRequest(to: "1,2", mode: "cycling", style: "apple-legacy"),
            .modeNotSupported(.cycling, style: .appleLegacy)
        ),
        (MapLinkRequest(to: "1,2", mode: "walking", style: "osm"), .modeNotSupported(.walking, style: .osm)),
        (MapLinkRequest(to: "1,2", from: "3,4", mode: "show"), .sourceWithoutMode(style: .apple)),
        (MapLinkRequest(to: "1,2", from: "here"), .noCurrentPosition),
        (MapLinkRequest(flyer: "f1"), .flyerLookupUnavailable),
        (MapLinkRequest(address: "  "), .empty(parameter: "address"))
    ]

    @Test("bad input is a clear error", arguments: invalid)
    func invalidRequests(request: MapLinkRequest, error: MapLinkError) async throws {
        await #expect(throws: error) { try await resolver.link(for: request) }
    }

    @Test("error messages name the parameter and what to send")
    func messages() {
        #expect(
            MapLinkError.invalidCoordinate(parameter: "to", .latitudeOutOfRange(91)).description
                == "to: latitude 91.0 is outside -90...90; check that latitude and longitude are not swapped")
        #expect(
            MapLinkError.unknownMode("flying").description
                == "mode 'flying' is not known; expected one of: driving, walking, transit, cycling, show")
        #expect(
            MapLinkError.unknownStyle("bing").description
                == "style 'bing' is not known; expected one of: apple, apple-legacy, google, geo, osm")
        #expect(MapLinkError.unknownFlyer("f9").description.contains("'f9'"))
    }

    @Test("from=here uses the current position")
    func fromHere() async throws {
        let here = try Coordinate(latitude: 10, longitude: 20)
        let resolver = MapLinkResolver(defaults: MapLinkBuilder(style: .google, mode: .driving), currentPosition: here)
        let result = try await resolver.link(for: MapLinkRequest(to: "1,2", from: "here"))
        #expect(result.url == "https://www.google.com/maps/dir/?api=1&origin=10,20&destination=1,2&travelmode=driving")
        #expect(result.from == here)
    }

    @Test("flyers: title as name, address kept, origin is from or the current position")
    func flyers() async throws {
        let market = FlyerPlace(
            coordinate: try Coordinate(latitude: 48.8556, longitude: 2.2986), title: "Flea & Food",
            address: "Champ de Mars")
        let lookup = FixedFlyers(places: ["f1": market])
        let here = try Coordinate(latitude: 48.86, longitude: 2.3)
        let resolver = MapLinkResolver(
            defaults: MapLinkBuilder(style: .apple, mode: nil), flyers: lookup, currentPosition: here)

        let shown = try await resolver.link(for: MapLinkRequest(flyer: "f1"))
        #expect(
            shown.url
                == "https://maps.apple.com/place?coordinate=48.8556,2.2986&name=Flea%20%26%20Food&address=Champ%20de%20Mars"
        )
        #expect(
            shown.destination
                == .init(
                    kind: "flyer", latitude: 48.8556, longitude: 2.2986, name: "Flea & Food",
                    address: "Champ de Mars", flyerId: "f1"))
        let routed = try await resolver.link(
            for: MapLinkRequest(flyer: "f1", name: "Market", from: "48,2", mode: "walking"))
        #expect(routed.url == "https://maps.apple.com/directions?source=48,2&destination=48.8556,2.2986&mode=walking")
        #expect(routed.destination.name == "Market")
        #expect(await lookup.origins.values == [here, try Coordinate(latitude: 48, longitude: 2)])

        await #expect(throws: MapLinkError.unknownFlyer("nope")) {
            try await resolver.link(for: MapLinkRequest(flyer: "nope"))
        }
    }
}
