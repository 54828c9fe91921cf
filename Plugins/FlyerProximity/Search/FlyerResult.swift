import Foundation
import MapLinkCore
import MeridianCore

/// One flyer as the API and the CLI show it: its fields, the point to head for and,
/// when a location is known, the exact distance, its text in the user's units and the bearing.
package struct FlyerResult: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var description: String?
    package var address: String?
    package var category: String?
    package var url: String?
    package var radiusM: Double
    package var validFrom: Date?
    package var validUntil: Date?
    /// `Point`, `Polygon` or `MultiPolygon`.
    package var geometryType: String
    /// The point to head for: the flyer's point, or the nearest boundary point of its area.
    package var lat: Double
    package var lon: Double
    /// Exact ellipsoidal distance in metres (0 inside an area); absent without a location.
    package var distanceM: Double?
    package var distanceText: String?
    /// Initial bearing from the centre, degrees clockwise from north; absent at distance 0.
    package var bearing: Double?
    /// A navigation link to `lat`,`lon`.
    package var mapUrl: String?
}

/// A page of flyers near a centre (or, without a location, sorted by title).
package struct NearbyResponse: Codable, Sendable, Equatable {
    /// False when no centre was given and no fix is available: items carry no distances.
    package var locationAvailable: Bool
    package var center: CenterPoint?
    package var radiusM: Double?
    package var items: [FlyerResult]
    /// Pass as `cursor` to get the next page; absent on the last page.
    package var nextCursor: String?
    /// True when the database cannot be reached and the in-memory cache answered (it may miss
    /// changes made since); absent otherwise.
    package var stale: Bool?
}

/// The centre of a search.
package struct CenterPoint: Codable, Sendable, Equatable {
    package var lat: Double
    package var lon: Double
}

/// Turns flyers and matches into `FlyerResult`s with the configured units and map style.
package struct FlyerPresenter: Sendable {
    package var units: UnitSystem
    package var mapLinks: MapLinkBuilder

    package init(units: UnitSystem, mapStyle: MapStyle) {
        self.units = units
        mapLinks = MapLinkBuilder(style: mapStyle)
    }

    /// A search hit; `target` is where to head for (see `FlyerIndex.target`).
    package func result(_ match: NearbyMatch, center: Coordinate, target: Coordinate) -> FlyerResult {
        var result = self.result(match.flyer, target: target)
        result.distanceM = match.distance
        result.distanceText = DistanceFormat.string(metres: match.distance, units: units)
        if match.distance > 0 {
            result.bearing = match.bearing ?? Geodesic.wgs84.inverse(from: center, to: match.nearest).initialBearing
        }
        return result
    }

    /// A flyer without distances.
    package func result(_ flyer: Flyer, target: Coordinate) -> FlyerResult {
        let place = FlyerPlace(coordinate: target, title: flyer.title, address: flyer.address)
        return FlyerResult(
            id: flyer.id, title: flyer.title, description: flyer.description, address: flyer.address,
            category: flyer.category, url: flyer.url, radiusM: flyer.radiusM, validFrom: flyer.validFrom,
            validUntil: flyer.validUntil, geometryType: flyer.geometry.typeName,
            lat: target.latitude, lon: target.longitude,
            mapUrl: try? mapLinks.url(to: .flyer(place)))
    }
}
