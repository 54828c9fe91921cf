import Foundation
import MeridianCore

/// A point in Earth-centred, Earth-fixed coordinates (metres) on the WGS84 ellipsoid.
///
/// The straight-line chord between two surface points is never longer than the
/// geodesic between them, so it gives a cheap, always-valid lower bound for pruning.
struct EarthPoint: Sendable, Equatable {
    var x: Double
    var y: Double
    var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ coordinate: Coordinate) {
        let geodesic = Geodesic.wgs84
        let e2 = geodesic.flattening * (2 - geodesic.flattening)
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        let sinLatitude = sin(latitude)
        let normal = geodesic.equatorialRadius / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        x = normal * cos(latitude) * cos(longitude)
        y = normal * cos(latitude) * sin(longitude)
        z = normal * (1 - e2) * sinLatitude
    }

    /// Straight-line distance in metres.
    func chord(to other: EarthPoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The surface point below (approximately; used only to pick an anchor).
    var surfaceCoordinate: Coordinate? {
        let e2 = Geodesic.wgs84.flattening * (2 - Geodesic.wgs84.flattening)
        let latitude = atan2(z, (1 - e2) * (x * x + y * y).squareRoot()) * 180 / .pi
        let longitude = atan2(y, x) * 180 / .pi
        return Coordinate.clamped(latitude: latitude, longitude: longitude)
    }
}

/// Longitude difference `degrees` wrapped to -180..<180 (so that crossing ±180° is a small step).
func wrappedLongitudeDifference(_ degrees: Double) -> Double {
    var value = degrees.truncatingRemainder(dividingBy: 360)
    if value >= 180 { value -= 360 }
    if value < -180 { value += 360 }
    return value
}
