import Foundation
import MeridianCore

/// A local announcement (an offer, an event, a lost cat) at a point or over an area.
public struct Flyer: Sendable, Equatable {
    /// Unique id, given by the author or generated.
    public var id: String
    public var title: String
    public var description: String?
    public var address: String?
    public var category: String?
    public var url: String?
    /// For point flyers: the radius in metres of the area used for enter/exit events.
    public var radiusM: Double
    /// Before this instant the flyer is not yet valid.
    public var validFrom: Date?
    /// After this instant the flyer has expired.
    public var validUntil: Date?
    public var geometry: FlyerGeometry

    /// The radius used when none is given.
    public static let defaultRadius = 100.0

    /// The longest texts accepted (a larger value is refused naming the field, never cut).
    public static let titleLimit = TextLimit(characters: 200)
    public static let descriptionLimit = TextLimit(characters: 10_000, bytes: 10_000)
    public static let addressLimit = TextLimit(characters: 500)
    public static let categoryLimit = TextLimit(characters: 100)
    public static let urlLimit = TextLimit(characters: 2_000, bytes: 2_000)

    public init(
        id: String, title: String, description: String? = nil, address: String? = nil,
        category: String? = nil, url: String? = nil, radiusM: Double = Flyer.defaultRadius,
        validFrom: Date? = nil, validUntil: Date? = nil, geometry: FlyerGeometry
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.address = address
        self.category = category
        self.url = url
        self.radiusM = radiusM
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.geometry = geometry
    }

    /// True when the flyer is valid at `instant` (bounds included).
    public func isActive(at instant: Date) -> Bool {
        if let validFrom, instant < validFrom { return false }
        if let validUntil, instant > validUntil { return false }
        return true
    }

    /// A new random id for flyers given without one.
    public static func generateID() -> String {
        UUID().uuidString.lowercased()
    }
}

/// Where a flyer is: a point, or an area made of polygons (outer ring first, then holes).
///
/// Rings are closed (first position equals the last); polygon edges are geodesics.
public enum FlyerGeometry: Sendable, Equatable {
    case point(Coordinate)
    case polygon([[Coordinate]])
    case multiPolygon([[[Coordinate]]])

    /// The GeoJSON type name.
    public var typeName: String {
        switch self {
        case .point: return "Point"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        }
    }

    /// The polygons of an area (empty for a point).
    public var polygons: [[[Coordinate]]] {
        switch self {
        case .point: return []
        case .polygon(let rings): return [rings]
        case .multiPolygon(let polygons): return polygons
        }
    }
}
