import Foundation
import MapLinks
import MeridianCore

/// One flyer as the API and the CLI show it: its fields, the point to head for and,
/// when a location is known, the exact distance, its text in the user's units and the bearing.
public struct FlyerResult: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var description: String?
    public var address: String?
    public var category: String?
    public var url: String?
    public var radiusM: Double
    public var validFrom: Date?
    public var validUntil: Date?
    /// `Point`, `Polygon` or `MultiPolygon`.
    public var geometryType: String
    /// The point to head for: the flyer's point, or the nearest boundary point of its area.
    public var lat: Double
    public var lon: Double
    /// Exact ellipsoidal distance in metres (0 inside an area); absent without a location.
    public var distanceM: Double?
    public var distanceText: String?
    /// Initial bearing from the centre, degrees clockwise from north; absent at distance 0.
    public var bearing: Double?
    /// A navigation link to `lat`,`lon`.
    public var mapUrl: String?
}

/// A page of flyers near a centre (or, without a location, sorted by title).
public struct NearbyResponse: Codable, Sendable, Equatable {
    /// False when no centre was given and no fix is available: items carry no distances.
    public var locationAvailable: Bool
    public var center: CenterPoint?
    public var radiusM: Double?
    public var items: [FlyerResult]
    /// Pass as `cursor` to get the next page; absent on the last page.
    public var nextCursor: String?
    /// True when the database cannot be reached and the in-memory cache answered (it may miss
    /// changes made since); absent otherwise.
    public var stale: Bool?
}

/// The centre of a search.
public struct CenterPoint: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
}

/// Turns flyers and matches into `FlyerResult`s with the configured units and map style.
public struct FlyerPresenter: Sendable {
    public var units: UnitSystem
    public var mapLinks: MapLinkBuilder

    public init(units: UnitSystem, mapStyle: MapStyle) {
        self.units = units
        mapLinks = MapLinkBuilder(style: mapStyle)
    }

    /// A search hit; `target` is where to head for (see `FlyerIndex.target`).
    public func result(_ match: NearbyMatch, center: Coordinate, target: Coordinate) -> FlyerResult {
        var result = self.result(match.flyer, target: target)
        result.distanceM = match.distance
        result.distanceText = DistanceFormat.string(metres: match.distance, units: units)
        if match.distance > 0 {
            result.bearing = Geodesic.wgs84.inverse(from: center, to: match.nearest).initialBearing
        }
        return result
    }

    /// A flyer without distances.
    public func result(_ flyer: Flyer, target: Coordinate) -> FlyerResult {
        let place = FlyerPlace(coordinate: target, title: flyer.title, address: flyer.address)
        return FlyerResult(id: flyer.id, title: flyer.title, description: flyer.description, address: flyer.address,
                           category: flyer.category, url: flyer.url, radiusM: flyer.radiusM, validFrom: flyer.validFrom,
                           validUntil: flyer.validUntil, geometryType: flyer.geometry.typeName,
                           lat: target.latitude, lon: target.longitude,
                           mapUrl: try? mapLinks.url(to: .flyer(place)))
    }
}
