/// A validated WGS84 position in decimal degrees.
///
/// Latitude comes first everywhere in Meridian's API; the store and
/// GeoJSON boundaries convert to longitude-first themselves.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// Creates a coordinate, rejecting NaN, infinities and out-of-range values.
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite else { throw .notFinite(name: "latitude", value: latitude) }
        guard longitude.isFinite else { throw .notFinite(name: "longitude", value: longitude) }
        guard (-90.0...90.0).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        // Normalise -0.0 so that hashing, equality and printing agree.
        self.latitude = latitude == 0 ? 0 : latitude
        self.longitude = longitude == 0 ? 0 : longitude
    }

    /// For values already known to be in range (constants, clamped results).
    init(uncheckedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude == 0 ? 0 : latitude
        self.longitude = longitude == 0 ? 0 : longitude
    }

    /// 0°, 0°.
    public static let zero = Coordinate(uncheckedLatitude: 0, longitude: 0)

    /// A coordinate from computed values: latitude clamped, longitude wrapped; nil only for NaN.
    public static func clamped(latitude: Double, longitude: Double) -> Coordinate? {
        try? Coordinate(latitude: min(90, max(-90, latitude)), longitude: Geodesic.normalizedLongitude(longitude))
    }

    /// Parses `"LAT,LON"` (whitespace around either number is allowed).
    public init(parsing text: String) throws(CoordinateError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let latitude = Double(parts[0].trimmingSpaces),
            let longitude = Double(parts[1].trimmingSpaces)
        else { throw .unparsable(text) }
        try self.init(latitude: latitude, longitude: longitude)
    }

    public var description: String { "\(latitude),\(longitude)" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        do {
            try self.init(latitude: latitude, longitude: longitude)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}

/// Why a latitude/longitude pair was rejected.
public enum CoordinateError: Error, Equatable, CustomStringConvertible {
    case notFinite(name: String, value: Double)
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case unparsable(String)

    public var description: String {
        switch self {
        case .notFinite(let name, let value):
            return "\(name) \(value) is not a finite number; give decimal degrees such as 48.8584"
        case .latitudeOutOfRange(let value):
            return "latitude \(value) is outside -90...90; check that latitude and longitude are not swapped"
        case .longitudeOutOfRange(let value):
            return "longitude \(value) is outside -180...180; give decimal degrees east of Greenwich"
        case .unparsable(let text):
            return "'\(text)' is not a coordinate; write it as LAT,LON in decimal degrees, e.g. 48.8584,2.2945"
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first?.isWhitespace == true { result.removeFirst() }
        while result.last?.isWhitespace == true { result.removeLast() }
        return result
    }
}
