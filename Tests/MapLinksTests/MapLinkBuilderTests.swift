import Foundation
import MeridianCore
import Testing

@testable import MapLinkCore
@testable import MapLinks

/// A parsed link: everything a maps app would read from it.
struct ParsedLink: Equatable, CustomStringConvertible {
    var scheme: String?
    var host: String?
    var path: String
    var items: [String: String]
    var names: [String]
    var fragment: String?

    init(_ url: String) throws {
        let components = try #require(URLComponents(string: url), "not a URL: \(url)")
        scheme = components.scheme
        host = components.host
        path = components.path
        let queryItems = components.queryItems ?? []
        names = queryItems.map(\.name)
        items = Dictionary(queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        fragment = components.fragment
        // Only unreserved characters, '%' escapes, the separators and the coordinate comma are literal.
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%=&,")
        let query = components.percentEncodedQuery ?? ""
        #expect(query.allSatisfy { allowed.contains($0) }, "raw reserved character in \(query)")
    }

    var description: String { "\(scheme ?? ""):\(host ?? "")\(path) \(items) #\(fragment ?? "")" }
}

@Suite("MapLinkBuilder")
struct MapLinkBuilderTests {
    static let eiffel = try! Coordinate(latitude: 48.8583701, longitude: 2.2944813)
    static let home = try! Coordinate(latitude: 48.85, longitude: 2.35)

    /// One example of every link form, as exact text.
    static let exactCases: [(MapLinkBuilder, MapDestination, Coordinate?, String)] = [
        (
            .init(style: .apple, mode: .walking), .coordinate(eiffel, name: "Tour Eiffel"), nil,
            "https://maps.apple.com/directions?destination=48.85837,2.294481&mode=walking"
        ),
        (
            .init(style: .apple, mode: .cycling), .coordinate(eiffel), home,
            "https://maps.apple.com/directions?source=48.85,2.35&destination=48.85837,2.294481&mode=cycling"
        ),
        (
            .init(style: .apple, mode: .transit), .address("5 Avenue Anatole France, Paris"), nil,
            "https://maps.apple.com/directions?destination=5%20Avenue%20Anatole%20France%2C%20Paris&mode=transit"
        ),
        (
            .init(style: .apple, mode: nil), .coordinate(eiffel, name: "Tour Eiffel"), nil,
            "https://maps.apple.com/place?coordinate=48.85837,2.294481&name=Tour%20Eiffel"
        ),
        (
            .init(style: .apple, mode: nil), .coordinate(eiffel, name: "Bäckerei", address: "Rue 1"), nil,
            "https://maps.apple.com/place?coordinate=48.85837,2.294481&name=B%C3%A4ckerei&address=Rue%201"
        ),
        (
            .init(style: .apple, mode: nil), .coordinate(eiffel, name: "  "), nil,
            "https://maps.apple.com/place?coordinate=48.85837,2.294481"
        ),
        (
            .init(style: .apple, mode: nil), .place(name: "Bakery", near: home), nil,
            "https://maps.apple.com/search?query=Bakery&center=48.85,2.35"
        ),
        (
            .init(style: .apple, mode: nil), .address("1 Infinite Loop"), nil,
            "https://maps.apple.com/search?query=1%20Infinite%20Loop"
        ),
        (
            .init(style: .appleLegacy, mode: .driving), .coordinate(eiffel), home,
            "https://maps.apple.com/?daddr=48.85837,2.294481&saddr=48.85,2.35&dirflg=d"
        ),
        (
            .init(style: .appleLegacy, mode: .walking), .address("A&B"), nil,
            "https://maps.apple.com/?daddr=A%26B&dirflg=w"
        ),
        (
            .init(style: .appleLegacy, mode: .transit), .place(name: "Gare", near: nil), nil,
            "https://maps.apple.com/?daddr=Gare&dirflg=r"
        ),
        (
            .init(style: .appleLegacy, mode: nil), .coordinate(eiffel, name: "Tour Eiffel"), nil,
            "https://maps.apple.com/?ll=48.85837,2.294481&q=Tour%20Eiffel"
        ),
        (
            .init(style: .appleLegacy, mode: nil), .address("1 Infinite Loop, Cupertino"), nil,
            "https://maps.apple.com/?address=1%20Infinite%20Loop%2C%20Cupertino"
        ),
        (
            .init(style: .appleLegacy, mode: nil), .place(name: "Pizza", near: home), nil,
            "https://maps.apple.com/?q=Pizza&sll=48.85,2.35"
        ),
        (
            .init(style: .google, mode: .cycling), .coordinate(eiffel), home,
            "https://www.google.com/maps/dir/?api=1&origin=48.85,2.35&destination=48.85837,2.294481&travelmode=bicycling"
        ),
        (
            .init(style: .google, mode: .driving), .address("10 Downing St"), nil,
            "https://www.google.com/maps/dir/?api=1&destination=10%20Downing%20St&travelmode=driving"
        ),
        (
            .init(style: .google, mode: nil), .coordinate(eiffel, name: "Tour Eiffel"), nil,
            "https://www.google.com/maps/search/?api=1&query=48.85837,2.294481"
        ),
        (
            .init(style: .google, mode: nil), .place(name: "Café+Bar", near: nil), nil,
            "https://www.google.com/maps/search/?api=1&query=Caf%C3%A9%2BBar"
        ),
        (.init(style: .geo, mode: nil), .coordinate(eiffel, accuracy: 12.25), nil, "geo:48.85837,2.294481;u=12.3"),
        (.init(style: .geo, mode: nil), .coordinate(eiffel, name: "ignored"), nil, "geo:48.85837,2.294481"),
        (
            .init(style: .osm, mode: nil), .coordinate(eiffel), nil,
            "https://www.openstreetmap.org/?mlat=48.85837&mlon=2.294481#map=17/48.85837/2.294481"
        ),
        (
            .init(style: .osm, mode: nil), .address("Unter den Linden 1, Berlin"), nil,
            "https://www.openstreetmap.org/search?query=Unter%20den%20Linden%201%2C%20Berlin"
        )
    ]

    @Test("exact links for every form", arguments: exactCases)
    func exactLinks(builder: MapLinkBuilder, destination: MapDestination, source: Coordinate?, expected: String) throws
    {
        let url = try builder.url(to: destination, from: source)
        #expect(url == expected)
        _ = try ParsedLink(url)
    }

    /// Where each style puts the travel mode, and how it spells each one (nil: the style cannot express it).
    static func modeParameter(_ style: MapStyle, _ mode: TravelMode) -> (name: String, value: String?) {
        switch style {
        case .apple: return ("mode", mode.rawValue)
        case .appleLegacy: return ("dirflg", ["driving": "d", "walking": "w", "transit": "r"][mode.rawValue])
        case .google: return ("travelmode", mode == .cycling ? "bicycling" : mode.rawValue)
        case .geo, .osm: return ("", nil)
        }
    }

    static let matrix: [(MapStyle, TravelMode?, Bool)] = MapStyle.allCases.flatMap { style in
        (TravelMode.allCases.map(Optional.some) + [nil]).flatMap { mode in [(style, mode, false), (style, mode, true)] }
    }

    @Test("every style × mode × with/without a source", arguments: matrix)
    func styleModeMatrix(style: MapStyle, mode: TravelMode?, withSource: Bool) throws {
        let builder = MapLinkBuilder(style: style, mode: mode)
        let source = withSource ? Self.home : nil
        let destination = MapDestination.coordinate(Self.eiffel, name: "Café & Bar #1 + 50% /?", accuracy: 8)
        if let mode {
            let (parameter, value) = Self.modeParameter(style, mode)
            guard let value else {
                #expect(throws: MapLinkError.modeNotSupported(mode, style: style)) {
                    try builder.url(to: destination, from: source)
                }
                return
            }
            let link = try ParsedLink(try builder.url(to: destination, from: source))
            #expect(link.scheme == "https")
            #expect(link.items[parameter] == value)
            let destinationKey = style == .appleLegacy ? "daddr" : "destination"
            let sourceKey = ["apple": "source", "apple-legacy": "saddr", "google": "origin"][style.rawValue] ?? ""
            #expect(link.items[destinationKey] == "48.85837,2.294481")
            #expect(link.items[sourceKey] == (withSource ? "48.85,2.35" : nil))
            #expect(link.names.count == (withSource ? 3 : 2) + (style == .google ? 1 : 0))
        } else if withSource {
            #expect(throws: MapLinkError.sourceWithoutMode(style: style)) {
                try builder.url(to: destination, from: source)
            }
        } else {
            let url = try builder.url(to: destination, from: source)
            let link = try ParsedLink(url)
            switch style {
            case .apple:
                #expect(link.host == "maps.apple.com" && link.path == "/place")
                #expect(link.items == ["coordinate": "48.85837,2.294481", "name": "Café & Bar #1 + 50% /?"])
            case .appleLegacy:
                #expect(link.host == "maps.apple.com" && link.path == "/")
                #expect(link.items == ["ll": "48.85837,2.294481", "q": "Café & Bar #1 + 50% /?"])
            case .google:
                #expect(link.host == "www.google.com" && link.path == "/maps/search/")
                #expect(link.items == ["api": "1", "query": "48.85837,2.294481"])
            case .geo:
                #expect(link.scheme == "geo" && link.path == "48.85837,2.294481;u=8")
            case .osm:
                #expect(link.host == "www.openstreetmap.org")
                #expect(link.items == ["mlat": "48.85837", "mlon": "2.294481"])
                #expect(link.fragment == "map=17/48.85837/2.294481")
            }
        }
    }

    static let awkwardNames = [
        "A&B", "1+1=2", "#hashtag", "100% pure", "Crêperie Ærø", "Smörgås 🥐☕️", "a/b?c", "l'été",
        "東京タワー", "semi;colon", "tab\there", "\"quoted\""
    ]

    @Test("names survive encoding in every style that carries a name", arguments: awkwardNames)
    func namesRoundTrip(name: String) throws {
        let apple = try ParsedLink(
            try MapLinkBuilder(style: .apple, mode: nil).url(to: .coordinate(Self.eiffel, name: name)))
        #expect(apple.items["name"] == name)
        let legacy = try ParsedLink(
            try MapLinkBuilder(style: .appleLegacy, mode: nil).url(to: .coordinate(Self.eiffel, name: name)))
        #expect(legacy.items["q"] == name)
        let search = try ParsedLink(
            try MapLinkBuilder(style: .apple, mode: nil).url(to: .place(name: name, near: Self.home)))
        #expect(search.items == ["query": name, "center": "48.85,2.35"])
        let google = try ParsedLink(try MapLinkBuilder(style: .google, mode: .walking).url(to: .address(name)))
        #expect(google.items["destination"] == name)
        let osm = try ParsedLink(try MapLinkBuilder(style: .osm, mode: nil).url(to: .place(name: name, near: nil)))
        #expect(osm.items == ["query": name])
        #expect(osm.fragment == nil)
    }

    @Test(
        "names and addresses lose surrounding whitespace, ASCII or not; blank ones are left out",
        arguments: [
            (" Bakery", "Bakery"), ("Bakery\n", "Bakery"), ("\u{A0}Bakery\u{2003}", "Bakery"), ("\u{85}Café\t", "Café"),
            ("Bakery", "Bakery"), ("é ", "é"), ("Tour Eiffel 🗼", "Tour Eiffel 🗼"), ("\u{7F}x\u{7F}", "\u{7F}x\u{7F}"),
            (" \u{3000}\r\n", nil)
        ] as [(String, String?)])
    func trimmedNames(given: String, kept: String?) throws {
        let link = try ParsedLink(
            try MapLinkBuilder(style: .apple, mode: nil).url(to: .coordinate(Self.eiffel, name: given, address: given)))
        #expect(link.items["name"] == kept)
        #expect(link.items["address"] == kept)
    }

    @Test("extreme coordinates in every style", arguments: LinkTextTests.coordinateCases)
    func extremeCoordinates(latitude: Double, longitude: Double, text: String) throws {
        let point = try Coordinate(latitude: latitude, longitude: longitude)
        for style in MapStyle.allCases {
            let url = try MapLinkBuilder(style: style).url(to: .coordinate(point))
            #expect(url.contains(style == .osm ? text.replacingOccurrences(of: ",", with: "/") : text), "\(url)")
            #expect(!url.contains("e-") && !url.contains("-0,") && !url.hasSuffix("-0"), "\(url)")
        }
    }

    @Test("directions to a coordinate made from the kept template are the links made item by item")
    func coordinateTemplate() throws {
        var random = SeededRandom(seed: 31)
        let points =
            try LinkTextTests.coordinateCases.map { try Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            + (0..<200).map { _ in
                try Coordinate(
                    latitude: Double.random(in: -90...90, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))
            }
        for style in MapStyle.allCases {
            for mode in TravelMode.allCases where style.supports(mode) {
                let builder = MapLinkBuilder(style: style, mode: mode)
                for point in points {
                    let expected = try MapLinkBuilder.directions(
                        style: style, to: .coordinate(point), from: nil, mode: mode)
                    #expect(try builder.url(to: .coordinate(point, name: "Bakery", accuracy: 5)) == expected)
                    #expect(
                        try builder.url(to: .flyer(FlyerPlace(coordinate: point, title: "T", address: nil))) == expected
                    )
                }
            }
        }
    }

    @Test("errors name the input and what is allowed")
    func errors() throws {
        #expect(throws: MapLinkError.modeNotSupported(.cycling, style: .appleLegacy)) {
            try MapLinkBuilder(style: .appleLegacy, mode: .cycling).url(to: .coordinate(Self.eiffel))
        }
        #expect(
            MapLinkError.modeNotSupported(.cycling, style: .appleLegacy).description
                == "mode 'cycling' cannot be expressed by style 'apple-legacy'; expected one of: driving, walking, transit, show"
        )
        #expect(MapLinkError.modeNotSupported(.walking, style: .geo).description.contains("only shows a place"))
        #expect(throws: MapLinkError.destinationNotSupported(kind: "an address", style: .geo)) {
            try MapLinkBuilder(style: .geo).url(to: .address("1 Main St"))
        }
        #expect(throws: MapLinkError.empty(parameter: "address")) {
            try MapLinkBuilder().url(to: .address(" "))
        }
        #expect(throws: MapLinkError.empty(parameter: "name")) {
            try MapLinkBuilder().url(to: .place(name: "", near: nil))
        }
        #expect(throws: MapLinkError.invalidAccuracy("-1")) {
            try MapLinkBuilder(style: .geo).url(to: .coordinate(Self.eiffel, accuracy: -1))
        }
        #expect(throws: MapLinkError.invalidAccuracy("--")) {
            try MapLinkBuilder(style: .geo).url(to: .coordinate(Self.eiffel, accuracy: .nan))
        }
    }

    @Test("a flyer destination carries its title and address")
    func flyerDestination() throws {
        let place = FlyerPlace(coordinate: Self.eiffel, title: "Flea market", address: "Champ de Mars")
        let link = try ParsedLink(try MapLinkBuilder(style: .apple, mode: nil).url(to: .flyer(place)))
        #expect(link.items == ["coordinate": "48.85837,2.294481", "name": "Flea market", "address": "Champ de Mars"])
    }
}
