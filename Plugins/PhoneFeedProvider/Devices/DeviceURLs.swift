/// What to type into each app for one device, from the server's base URL (`http://host:port`).
package struct DeviceURLs: Sendable, Encodable, Equatable {
    /// OwnTracks (HTTP mode): this URL, user = the device name, password = the key.
    package var owntracks: String
    /// OsmAnd and Traccar Client: this server URL, identifier = the device name.
    package var osmand: String
    /// Overland: the receiver endpoint.
    package var overland: String
    /// GPSLogger for Android: the custom URL (GET).
    package var gpslogger: String

    package init(base: String, key: String) {
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        owntracks = "\(root)/v1/feeds/owntracks"
        osmand = "\(root)/v1/feeds/osmand?key=\(key)"
        overland = "\(root)/v1/feeds/overland?key=\(key)"
        gpslogger =
            "\(root)/v1/feeds/osmand?key=\(key)&lat=%LAT&lon=%LON&timestamp=%TIME&accuracy=%ACC&speed_mps=%SPD&altitude=%ALT&bearing=%DIR&batt=%BATT"
    }

    /// The lines to show a person setting up `protocol` on device `name`.
    package func instructions(for feedProtocol: FeedProtocol, name: String, key: String) -> [String] {
        switch feedProtocol {
        case .owntracks:
            [
                "OwnTracks: Settings > Connection > Mode HTTP", "  URL:      \(owntracks)", "  UserID:   \(name)",
                "  Password: \(key)"
            ]
        case .osmand:
            ["Traccar Client / OsmAnd: Settings", "  Server URL: \(osmand)", "  Identifier: \(name)"]
        case .overland:
            ["Overland: Settings > Receiver Endpoint", "  URL: \(overland)"]
        case .gpslogger:
            ["GPSLogger: Logging details > Log to custom URL (HTTP method GET)", "  URL: \(gpslogger)"]
        }
    }
}
