import Foundation
import MeridianCore

/// Builds navigation links for one style and travel mode. Pure and cheap: build one per request or result.
///
/// ```swift
/// let url = try MapLinkBuilder(style: .apple, mode: .walking)
///     .url(to: .coordinate(point, name: "Bakery"), from: nil)
/// ```
package struct MapLinkBuilder: Sendable, Equatable {
    package let style: MapStyle
    /// How to travel; `nil` shows the destination without directions.
    package let mode: TravelMode?
    /// This style and mode's entry of `coordinateDirections`, looked up once: a search makes a link for every result.
    private let coordinateTemplate: CoordinateLinkTemplate?

    package init(style: MapStyle = .apple, mode: TravelMode? = .walking) {
        self.style = style
        self.mode = mode
        coordinateTemplate = mode.flatMap { Self.coordinateDirections[Directions(style: style, mode: $0)] }
    }

    /// A builder with the style's default mode (walking, or showing the place for `geo` and `osm`).
    package init(style: MapStyle) {
        self.init(style: style, mode: style.defaultMode)
    }

    /// Checks that the style can express the mode.
    package func validate() throws(MapLinkError) {
        if let mode, !style.supports(mode) { throw .modeNotSupported(mode, style: style) }
    }

    /// The link to `destination`, starting at `source` (nil: the user's current location).
    package func url(to destination: MapDestination, from source: Coordinate? = nil) throws(MapLinkError) -> String {
        try validate()
        if let mode {
            let routing = try LinkTarget.routingValue(of: destination)
            if source == nil, let coordinateTemplate, case .coordinate(let point) = routing {
                return coordinateTemplate.link(to: point)
            }
            return try Self.directions(style: style, to: routing, from: source, mode: mode)
        }
        guard source == nil else { throw .sourceWithoutMode(style: style) }
        return try show(LinkTarget(destination))
    }

    // MARK: Directions

    /// A style and a travel mode of directions links.
    private struct Directions: Hashable {
        let style: MapStyle
        let mode: TravelMode
    }

    /// Per style and mode, directions to a coordinate from the current location as a template, made once for the
    /// process; absent where the style has no such link.
    private static let coordinateDirections: [Directions: CoordinateLinkTemplate] = {
        var templates: [Directions: CoordinateLinkTemplate] = [:]
        for style in MapStyle.allCases {
            for mode in TravelMode.allCases {
                let link = try? directions(style: style, to: .coordinateSlot, from: nil, mode: mode)
                templates[Directions(style: style, mode: mode)] = link.flatMap(CoordinateLinkTemplate.init)
            }
        }
        return templates
    }()

    /// The directions link in `style`, made item by item (`url` uses `coordinateDirections` for a coordinate without a
    /// source).
    static func directions(style: MapStyle, to destination: QueryValue, from source: Coordinate?, mode: TravelMode)
        throws(MapLinkError) -> String
    {
        let origin = source.map(QueryValue.coordinate)
        switch style {
        case .apple:
            return linkURL(
                "https://maps.apple.com/directions",
                [("source", origin), ("destination", destination), ("mode", .text(mode.rawValue))])
        case .appleLegacy:
            guard let flag = Self.legacyFlag(mode) else { throw .modeNotSupported(mode, style: style) }
            return linkURL(
                "https://maps.apple.com/",
                [("daddr", destination), ("saddr", origin), ("dirflg", .text(flag))])
        case .google:
            return linkURL(
                "https://www.google.com/maps/dir/",
                [
                    ("api", .text("1")), ("origin", origin), ("destination", destination),
                    ("travelmode", .text(Self.googleMode(mode)))
                ])
        case .geo, .osm:
            throw .modeNotSupported(mode, style: style)
        }
    }

    /// Classic Map Links' `dirflg`; they have no cycling directions.
    static func legacyFlag(_ mode: TravelMode) -> String? {
        switch mode {
        case .driving: return "d"
        case .walking: return "w"
        case .transit: return "r"
        case .cycling: return nil
        }
    }

    private static func googleMode(_ mode: TravelMode) -> String {
        mode == .cycling ? "bicycling" : mode.rawValue
    }

    // MARK: Showing a place

    private func show(_ target: LinkTarget) throws(MapLinkError) -> String {
        switch (style, target) {
        case (.apple, .point(let point, let name, let address, _)):
            return linkURL(
                "https://maps.apple.com/place",
                [
                    ("coordinate", .coordinate(point)), ("name", name.map(QueryValue.text)),
                    ("address", address.map(QueryValue.text))
                ])
        case (.apple, .address(let address)):
            return linkURL("https://maps.apple.com/search", [("query", .text(address))])
        case (.apple, .place(let name, let near)):
            return linkURL(
                "https://maps.apple.com/search",
                [("query", .text(name)), ("center", near.map(QueryValue.coordinate))])

        case (.appleLegacy, .point(let point, let name, _, _)):
            return linkURL("https://maps.apple.com/", [("ll", .coordinate(point)), ("q", name.map(QueryValue.text))])
        case (.appleLegacy, .address(let address)):
            return linkURL("https://maps.apple.com/", [("address", .text(address))])
        case (.appleLegacy, .place(let name, let near)):
            return linkURL("https://maps.apple.com/", [("q", .text(name)), ("sll", near.map(QueryValue.coordinate))])

        case (.google, _):
            return linkURL("https://www.google.com/maps/search/", [("api", .text("1")), ("query", target.routingValue)])

        case (.geo, .point(let point, _, _, let accuracy)):
            let uncertainty = accuracy.map { ";u=\(NumberText.trimmed($0, decimals: 1))" } ?? ""
            return "geo:\(LinkText.coordinate(point))\(uncertainty)"
        case (.geo, _):
            throw .destinationNotSupported(kind: target.kindDescription, style: style)

        case (.osm, .point(let point, _, _, _)):
            let latitude = LinkText.degrees(point.latitude)
            let longitude = LinkText.degrees(point.longitude)
            return linkURL(
                "https://www.openstreetmap.org/", [("mlat", .text(latitude)), ("mlon", .text(longitude))],
                fragment: "map=17/\(latitude)/\(longitude)")
        case (.osm, .address(let text)), (.osm, .place(let text, _)):
            return linkURL("https://www.openstreetmap.org/search", [("query", .text(text))])
        }
    }
}

/// A destination after validation: names trimmed (empty ones dropped), accuracy checked.
private enum LinkTarget {
    case point(Coordinate, name: String?, address: String?, accuracy: Double?)
    case address(String)
    case place(name: String, near: Coordinate?)

    init(_ destination: MapDestination) throws(MapLinkError) {
        switch destination {
        case .coordinate(let point, let name, let address, let accuracy):
            try Self.check(accuracy)
            self = .point(point, name: nonBlank(name), address: nonBlank(address), accuracy: accuracy)
        case .address(let text):
            guard let text = nonBlank(text) else { throw .empty(parameter: "address") }
            self = .address(text)
        case .place(let name, let near):
            guard let name = nonBlank(name) else { throw .empty(parameter: "name") }
            self = .place(name: name, near: near)
        }
    }

    /// `LinkTarget(destination).routingValue`, without trimming the names a directions link does not carry.
    static func routingValue(of destination: MapDestination) throws(MapLinkError) -> QueryValue {
        if case .coordinate(let point, _, _, let accuracy) = destination {
            try check(accuracy)
            return .coordinate(point)
        }
        return try LinkTarget(destination).routingValue
    }

    private static func check(_ accuracy: Double?) throws(MapLinkError) {
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) {
            throw .invalidAccuracy(NumberText.trimmed(accuracy, decimals: 3))
        }
    }

    /// The value a directions link or a plain search uses for this target.
    var routingValue: QueryValue {
        switch self {
        case .point(let point, _, _, _): return .coordinate(point)
        case .address(let text), .place(let text, _): return .text(text)
        }
    }

    var kindDescription: String {
        switch self {
        case .point: return "a coordinate"
        case .address: return "an address"
        case .place: return "a place name"
        }
    }
}

/// `text` without surrounding whitespace, or nil when nothing is left.
private func nonBlank(_ text: String?) -> String? {
    // Fast path (most names): first and last bytes are ASCII but not whitespace, so nothing would be trimmed.
    if let text, let first = text.utf8.first, let last = text.utf8.last, isVisibleASCII(first), isVisibleASCII(last) {
        return text
    }
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
    return trimmed
}

/// An ASCII byte outside `whitespacesAndNewlines` (which holds 0x09–0x0D and the space among ASCII).
private func isVisibleASCII(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
}
