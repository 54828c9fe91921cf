import MapLinkCore
import MeridianCore

/// A map-link request as text, as given on the command line or in an HTTP query.
///
/// Exactly one destination: `to` (LAT,LON, optionally with `name` and `accuracy`), `address`,
/// `flyer` (an id, optionally with `name` to override its title) or `name` alone (a place to
/// search for, optionally `near` LAT,LON).
package struct MapLinkRequest: Sendable, Equatable {
    package var to: String?
    package var address: String?
    package var flyer: String?
    package var name: String?
    package var near: String?
    /// LAT,LON, `here`, or nil for the user's current location as the maps app sees it.
    package var from: String?
    package var accuracy: String?
    package var mode: String?
    package var style: String?

    package init(
        to: String? = nil, address: String? = nil, flyer: String? = nil, name: String? = nil,
        near: String? = nil, from: String? = nil, accuracy: String? = nil,
        mode: String? = nil, style: String? = nil
    ) {
        self.to = to
        self.address = address
        self.flyer = flyer
        self.name = name
        self.near = near
        self.from = from
        self.accuracy = accuracy
        self.mode = mode
        self.style = style
    }

    /// The builder for this request: its style and mode, else `defaults`. Without a mode, a request that names a
    /// place (`name` with `to` or `flyer`, or `near` for a search) and has no `from` shows that place, since
    /// directions cannot carry a name or a search centre; otherwise the default mode (which may be `show`) is used
    /// when the style can express it, else the style's own default.
    package func builder(defaults: MapLinkBuilder) throws(MapLinkError) -> MapLinkBuilder {
        let style = try style.map { text throws(MapLinkError) in try MapStyle.parse(text) } ?? defaults.style
        let mode: TravelMode?
        if let text = self.mode {
            mode = try TravelMode.parse(text)
        } else if from == nil, namesPlace {
            mode = nil
        } else if defaults.mode.map(style.supports) ?? true {
            mode = defaults.mode
        } else {
            mode = style.defaultMode
        }
        let builder = MapLinkBuilder(style: style, mode: mode)
        try builder.validate()
        return builder
    }

    /// True when the request names a place beyond where it is: a name for a point or flyer, or a centre to search
    /// near. Only links that show the place carry these (see `MapStyle.showsPlaceDetails`).
    package var namesPlace: Bool {
        (name != nil && (to != nil || flyer != nil)) || near != nil
    }

    /// The start point: LAT,LON, `here` (the `current` position), or nil.
    package func source(current: Coordinate?) throws(MapLinkError) -> Coordinate? {
        guard let from else { return nil }
        if from == MapLinkError.hereWord {
            guard let current else { throw .noCurrentPosition }
            return current
        }
        return try Self.coordinate(from, parameter: "from")
    }

    /// Checks that exactly one destination is named, with only the parameters that go with it.
    package func validateDestination() throws(MapLinkError) {
        let given = [("to", to), ("address", address), ("flyer", flyer)].compactMap { $0.1 == nil ? nil : $0.0 }
        guard given.count <= 1 else { throw .conflictingDestinations(given) }
        if address != nil, name != nil {
            throw .misplaced(parameter: "name", allowedWith: "'to', 'flyer' or on its own")
        }
        if accuracy != nil, to == nil { throw .misplaced(parameter: "accuracy", allowedWith: "'to'") }
        if near != nil, !given.isEmpty { throw .misplaced(parameter: "near", allowedWith: "'name' on its own") }
        if given.isEmpty, name == nil { throw .missingDestination }
    }

    /// The destination named by `to`, `address` or `name`; nil for a flyer, which `MapLinkResolver` looks up.
    package func destination() throws(MapLinkError) -> MapDestination? {
        try validateDestination()
        if let to {
            return .coordinate(try Self.coordinate(to, parameter: "to"), name: name, accuracy: try parsedAccuracy())
        }
        if let address { return .address(address) }
        if flyer != nil { return nil }
        guard let name else { throw .missingDestination }
        let point = try near.map { text throws(MapLinkError) in try Self.coordinate(text, parameter: "near") }
        return .place(name: name, near: point)
    }

    private func parsedAccuracy() throws(MapLinkError) -> Double? {
        guard let accuracy else { return nil }
        guard let value = Double(accuracy), value.isFinite, value >= 0 else { throw .invalidAccuracy(accuracy) }
        return value
    }

    static func coordinate(_ text: String, parameter: String) throws(MapLinkError) -> Coordinate {
        do {
            return try Coordinate(parsing: text)
        } catch {
            throw .invalidCoordinate(parameter: parameter, error)
        }
    }
}
