import MeridianCore

/// Which maps app or URL scheme a link is written for.
package enum MapStyle: String, ConfigEnum, Codable, Sendable {
    /// Apple's unified Maps URLs (`/directions`, `/place`, `/search`).
    case apple
    /// Apple's classic Map Links (`?daddr=…&dirflg=…`, `?ll=…&q=…`, `?address=…`).
    case appleLegacy = "apple-legacy"
    /// Google Maps URLs (`/maps/dir/?api=1`, `/maps/search/?api=1`).
    case google
    /// An RFC 5870 `geo:` URI (a point only).
    case geo
    /// An openstreetmap.org link (a marker, or a search).
    case osm

    /// The travel modes this style can express; empty for styles that only show a place.
    package var travelModes: [TravelMode] { TravelMode.allCases.filter(supports) }

    /// Whether this style can express `mode` (checked for every link, without building `travelModes`).
    package func supports(_ mode: TravelMode) -> Bool {
        switch self {
        case .apple, .google: return true
        case .appleLegacy: return MapLinkBuilder.legacyFlag(mode) != nil
        case .geo, .osm: return false
        }
    }

    /// Whether the style can give directions at all.
    package var canRoute: Bool { !travelModes.isEmpty }

    /// Whether a link that shows a place (mode `show`) carries its name and a search's centre: Apple's links do;
    /// Google's take a coordinate or a text, `geo:` a point only, OpenStreetMap a marker or a search text.
    /// Directions links carry neither in any style.
    package var showsPlaceDetails: Bool { self == .apple || self == .appleLegacy }

    /// The mode used when none is asked for: walking where the style routes, otherwise showing the place.
    package var defaultMode: TravelMode? { canRoute ? .walking : nil }

    /// Parses a style name, as a `MapLinkError` listing the allowed names.
    package static func parse(_ text: String) throws(MapLinkError) -> MapStyle {
        guard let style = MapStyle(rawValue: text) else { throw .unknownStyle(text) }
        return style
    }
}

/// How the user wants to travel to the destination.
package enum TravelMode: String, ConfigEnum, Codable, Sendable {
    case driving, walking, transit, cycling

    /// The word that stands for "no route, just show the destination" wherever a mode is given as text.
    package static let showWord = "show"

    /// Parses a mode name; `show` gives nil (show the destination without directions).
    package static func parse(_ text: String) throws(MapLinkError) -> TravelMode? {
        if text == showWord { return nil }
        guard let mode = TravelMode(rawValue: text) else { throw .unknownMode(text) }
        return mode
    }
}

extension Optional where Wrapped == TravelMode {
    /// The mode's name, or `show` for no directions.
    package var modeName: String { self?.rawValue ?? TravelMode.showWord }
}
