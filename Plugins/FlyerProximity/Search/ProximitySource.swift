import Foundation
import MeridianCore

/// What `ProximityWatcher` asks of a cache.
package protocol ProximitySource: Sendable {
    /// The flyers whose enter/exit area reaches within `margin` metres of `position` (a point's
    /// `radius_m` disc, an area's polygons), each with its exact distance, in distance order.
    func candidates(near position: Coordinate, margin: Double, at instant: Date) throws(FlyerStoreError)
        -> [NearbyMatch]
    /// The flyer with this id.
    func flyer(id: String) throws(FlyerStoreError) -> Flyer?
    /// The exact distance from `center` to flyer `id`.
    func distance(id: String, from center: Coordinate) -> Double?
}

extension FlyerIndex: ProximitySource {
    package func candidates(near position: Coordinate, margin: Double, at instant: Date) -> [NearbyMatch] {
        within(largestPointRadius + margin, of: position, at: instant).filter { match in
            match.distance <= match.flyer.enterLimit + margin
        }
    }
}

extension Flyer {
    /// How near counts as inside: a point's `radius_m`, 0 for an area.
    var enterLimit: Double {
        switch geometry {
        case .point: return radiusM
        case .polygon, .multiPolygon: return 0
        }
    }
}
