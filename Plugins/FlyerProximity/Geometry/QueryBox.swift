import Foundation
import MeridianCore

/// A latitude/longitude box, as a map viewport is: from `west` eastwards to `east` (across ±180° when
/// west > east), between the parallels `south` and `north`. Its sides are meridians and parallels, not geodesics.
package struct QueryBox: Sendable, Equatable {
    let south: Double
    let north: Double
    let west: Double
    let east: Double
    /// Degrees from `west` eastwards to `east` (0...360).
    let width: Double

    /// Nil unless -90 ≤ south ≤ north ≤ 90 and both longitudes lie in -180...180.
    init?(west: Double, south: Double, east: Double, north: Double) {
        guard (-90...90).contains(south), (-90...90).contains(north), south <= north,
            (-180...180).contains(west), (-180...180).contains(east)
        else { return nil }
        self.south = south
        self.north = north
        self.west = west
        self.east = east
        width = west == -180 && east == 180 ? 360 : Self.positive(east - west)
    }

    /// `longitude`'s eastward offset from `west`, in 0..<360.
    func offset(_ longitude: Double) -> Double { Self.positive(longitude - west) }

    /// True when `point` lies in the box (its edges included).
    func contains(_ point: Coordinate) -> Bool {
        guard point.latitude >= south, point.latitude <= north else { return false }
        let offset = offset(point.longitude)
        return offset <= width || (width >= 360 - 1e-12)
    }

    /// True when the area has a point in the box: an edge meets it, or it holds the whole box.
    func meets(_ area: AreaShape) -> Bool {
        area.edges.contains { $0.meets(self) } || area.contains(center)
    }

    /// The middle of the box.
    var center: Coordinate {
        Coordinate.clamped(latitude: (south + north) / 2, longitude: west + width / 2) ?? .zero
    }

    /// A geodesic disc around `center` holding the box: the meridian arc to the farther parallel, plus the
    /// half width along the equator (no parallel is longer).
    var reach: Double {
        let geodesic = Geodesic.wgs84
        let middle = center
        let toSouth = geodesic.distance(
            middle, Coordinate.clamped(latitude: south, longitude: middle.longitude) ?? middle)
        let toNorth = geodesic.distance(
            middle, Coordinate.clamped(latitude: north, longitude: middle.longitude) ?? middle)
        return max(toSouth, toNorth) + width / 2 * .pi / 180 * geodesic.equatorialRadius + 1
    }

    private static func positive(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        return value < 0 ? value + 360 : value
    }
}
