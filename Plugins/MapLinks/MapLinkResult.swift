import MapLinkCore
import MeridianCore

/// A built link and what it points at: the JSON answer of `GET /v1/maplinks` and `meridian maplink --json`.
package struct MapLinkResult: Codable, Sendable, Equatable {
    /// Where a link points.
    package struct Destination: Codable, Sendable, Equatable {
        /// `coordinate`, `address`, `place` or `flyer`.
        package var kind: String
        package var latitude: Double?
        package var longitude: Double?
        package var name: String?
        package var address: String?
        /// Horizontal accuracy in metres, when given.
        package var accuracy: Double?
        package var flyerId: String?

        package init(
            kind: String, latitude: Double? = nil, longitude: Double? = nil, name: String? = nil,
            address: String? = nil, accuracy: Double? = nil, flyerId: String? = nil
        ) {
            self.kind = kind
            self.latitude = latitude
            self.longitude = longitude
            self.name = name
            self.address = address
            self.accuracy = accuracy
            self.flyerId = flyerId
        }

        init(_ destination: MapDestination, flyerId: String?) {
            switch destination {
            case .coordinate(let point, let name, let address, let accuracy):
                self.init(
                    kind: flyerId == nil ? "coordinate" : "flyer", latitude: point.latitude, longitude: point.longitude,
                    name: name, address: address, accuracy: accuracy, flyerId: flyerId)
            case .address(let text):
                self.init(kind: "address", address: text)
            case .place(let name, let near):
                self.init(kind: "place", latitude: near?.latitude, longitude: near?.longitude, name: name)
            }
        }
    }

    package var url: String
    package var style: MapStyle
    /// The travel mode, or `show` for a link that only shows the destination.
    package var mode: String
    package var destination: Destination
    /// The start point, or nil when the maps app starts from the user's location.
    package var from: Coordinate?

    package init(url: String, style: MapStyle, mode: String, destination: Destination, from: Coordinate?) {
        self.url = url
        self.style = style
        self.mode = mode
        self.destination = destination
        self.from = from
    }
}
