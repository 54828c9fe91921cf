import MeridianCore

/// A built link and what it points at: the JSON answer of `GET /v1/maplinks` and `meridian maplink --json`.
public struct MapLinkResult: Codable, Sendable, Equatable {
    /// Where a link points.
    public struct Destination: Codable, Sendable, Equatable {
        /// `coordinate`, `address`, `place` or `flyer`.
        public var kind: String
        public var latitude: Double?
        public var longitude: Double?
        public var name: String?
        public var address: String?
        /// Horizontal accuracy in metres, when given.
        public var accuracy: Double?
        public var flyerId: String?

        public init(kind: String, latitude: Double? = nil, longitude: Double? = nil, name: String? = nil,
                    address: String? = nil, accuracy: Double? = nil, flyerId: String? = nil) {
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
                self.init(kind: flyerId == nil ? "coordinate" : "flyer", latitude: point.latitude, longitude: point.longitude,
                          name: name, address: address, accuracy: accuracy, flyerId: flyerId)
            case .address(let text):
                self.init(kind: "address", address: text)
            case .place(let name, let near):
                self.init(kind: "place", latitude: near?.latitude, longitude: near?.longitude, name: name)
            }
        }
    }

    public var url: String
    public var style: MapStyle
    /// The travel mode, or `show` for a link that only shows the destination.
    public var mode: String
    public var destination: Destination
    /// The start point, or nil when the maps app starts from the user's location.
    public var from: Coordinate?

    public init(url: String, style: MapStyle, mode: String, destination: Destination, from: Coordinate?) {
        self.url = url
        self.style = style
        self.mode = mode
        self.destination = destination
        self.from = from
    }
}
