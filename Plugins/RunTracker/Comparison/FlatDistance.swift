import Foundation
import MeridianCore

/// Distances between nearby points from the ellipsoid's radii of curvature at their mean latitude: within a
/// millionth of Karney's geodesic for points up to 10 km apart below 85° of latitude, at a fraction of the cost.
/// Used to settle clear cases and to space points; every decision near a limit is taken with `Geodesic.wgs84`.
enum FlatDistance {
    private static let radians = Double.pi / 180
    private static let semiMajorAxis = Geodesic.wgs84.equatorialRadius
    private static let eccentricitySquared = Geodesic.wgs84.flattening * (2 - Geodesic.wgs84.flattening)

    /// The estimated distance in metres between `a` and `b`.
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let deltaLongitude = longitudeDelta(a, b)
        let meanLatitude = (phi1 + phi2) / 2
        let sine = sin(meanLatitude)
        let w2 = 1 - eccentricitySquared * sine * sine
        let w = w2.squareRoot()
        let east = deltaLongitude * radians * semiMajorAxis / w * cos(meanLatitude)
        let north = (phi2 - phi1) * semiMajorAxis * (1 - eccentricitySquared) / (w2 * w)
        return (east * east + north * north).squareRoot()
    }

    /// `b`'s longitude minus `a`'s, the short way round (-180...180).
    static func longitudeDelta(_ a: Coordinate, _ b: Coordinate) -> Double {
        let delta = b.longitude - a.longitude
        return delta > 180 ? delta - 360 : delta < -180 ? delta + 360 : delta
    }

    /// The point `fraction` of the way from `a` to `b`, linearly in latitude and longitude (for points a few
    /// kilometres apart at most, within centimetres of the geodesic).
    static func point(between a: Coordinate, and b: Coordinate, fraction: Double) -> Coordinate? {
        Coordinate.clamped(
            latitude: a.latitude + fraction * (b.latitude - a.latitude),
            longitude: a.longitude + fraction * longitudeDelta(a, b))
    }

    /// Whether the estimate can be trusted to decide against a limit: both points below 85° of latitude.
    static func isReliable(_ a: Coordinate, _ b: Coordinate) -> Bool {
        abs(a.latitude) < 85 && abs(b.latitude) < 85
    }
}

/// "Are these two points within `limit` metres?", decided exactly on the WGS84 ellipsoid: the flat estimate settles
/// pairs clearly nearer or farther (0.1 % and 1 mm away from the limit), Karney's geodesic the rest.
struct NearnessTest: Sendable {
    /// Metres.
    let limit: Double
    private let clearlyNear: Double
    private let clearlyFar: Double

    init(limit: Double) {
        self.limit = limit
        clearlyNear = limit * 0.999 - 0.001
        clearlyFar = limit * 1.001 + 0.001
    }

    func isNear(_ a: Coordinate, _ b: Coordinate) -> Bool {
        if FlatDistance.isReliable(a, b) {
            let estimate = FlatDistance.metres(a, b)
            if estimate <= clearlyNear { return true }
            if estimate >= clearlyFar && estimate < 10_000 { return false }
            if estimate >= 10_000 && limit < 5_000 { return false }
        }
        return Geodesic.wgs84.distance(a, b) <= limit
    }
}
