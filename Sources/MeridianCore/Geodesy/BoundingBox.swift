import Foundation

/// An axis-aligned box in degrees that contains every point within a radius of a centre.
///
/// Longitudes are split into up to two ranges when the box crosses the
/// antimeridian; a box that reaches a pole spans all longitudes.
public struct BoundingBox: Sendable, Equatable {
    public var minLatitude: Double
    public var maxLatitude: Double
    /// One range, or two when the box crosses ±180°. Each range has `lowerBound <= upperBound`.
    public var longitudeRanges: [ClosedRange<Double>]

    /// True when `coordinate` lies inside the box.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= minLatitude, coordinate.latitude <= maxLatitude else { return false }
        return longitudeRanges.contains { $0.contains(coordinate.longitude) }
    }
}

extension Geodesic {
    /// A box guaranteed to contain every point whose geodesic distance from `center`
    /// is at most `radius` metres.
    ///
    /// The latitude limits are the exact geodesic north and south extremes. The
    /// longitude half-width comes from the spherical small-circle formula evaluated
    /// with the smallest radius of curvature of the ellipsoid (which overstates the
    /// angular radius) plus a margin, so the box is a superset; callers re-check
    /// candidates with the exact distance.
    public func boundingBox(center: Coordinate, radius: Double) -> BoundingBox {
        let radius = max(0, radius.isFinite ? radius : .greatestFiniteMagnitude)
        let everything = BoundingBox(minLatitude: -90, maxLatitude: 90, longitudeRanges: [-180...180])
        // Half a meridian is the longest distance that can still exclude anything.
        let polarSemiAxis = equatorialRadius * (1 - flattening)
        guard radius < .pi * polarSemiAxis else { return everything }

        // Smallest radius of curvature on the ellipsoid: the meridional radius at the equator.
        let eccentricitySquared = flattening * (2 - flattening)
        let minimumCurvatureRadius = equatorialRadius * (1 - eccentricitySquared)
        let containsNorthPole = reaches(pole: 90, from: center, radius, minimumCurvatureRadius)
        let containsSouthPole = reaches(pole: -90, from: center, radius, minimumCurvatureRadius)
        let margin = 1e-9 + radius * 1e-12
        let maxLatitude = containsNorthPole ? 90 : min(90, meridianEndpoint(center, radius, bearing: 0) + margin)
        let minLatitude = containsSouthPole ? -90 : max(-90, meridianEndpoint(center, radius, bearing: 180) - margin)
        if containsNorthPole || containsSouthPole {
            return BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, longitudeRanges: [-180...180])
        }

        let angularRadius = radius / minimumCurvatureRadius * 1.000_001 + 1e-12
        let latitude = center.latitude * .pi / 180
        let ratio = sin(min(angularRadius, .pi / 2)) / cos(latitude)
        guard angularRadius < .pi / 2, ratio < 1 else {
            return BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, longitudeRanges: [-180...180])
        }
        let halfWidth = asin(ratio) * 180 / .pi * 1.000_001 + margin
        guard halfWidth < 180 else {
            return BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, longitudeRanges: [-180...180])
        }
        let west = center.longitude - halfWidth
        let east = center.longitude + halfWidth
        let ranges: [ClosedRange<Double>]
        if west < -180 {
            ranges = [(west + 360)...180, -180...east]
        } else if east > 180 {
            ranges = [west...180, -180...(east - 360)]
        } else {
            ranges = [west...east]
        }
        return BoundingBox(minLatitude: minLatitude, maxLatitude: maxLatitude, longitudeRanges: ranges)
    }

    /// Whether the pole at `latitude` (±90) lies within `radius` of `center`. The shortest way to a pole is along the
    /// meridian, at least as long as its latitude span times the smallest radius of curvature: a pole farther than
    /// that bound is out without solving the geodesic (every search's box asks).
    private func reaches(
        pole latitude: Double, from center: Coordinate, _ radius: Double, _ minimumCurvatureRadius: Double
    )
        -> Bool
    {
        let span = abs(latitude - center.latitude) * .pi / 180
        guard span * minimumCurvatureRadius <= radius * 1.000_001 + 1e-6 else { return false }
        return distance(center, Coordinate(uncheckedLatitude: latitude, longitude: center.longitude)) <= radius
    }

    private func meridianEndpoint(_ center: Coordinate, _ radius: Double, bearing: Double) -> Double {
        // `direct` cannot fail here: both inputs are finite.
        (try? direct(from: center, bearing: bearing, distance: radius).destination.latitude)
            ?? (bearing == 0 ? 90 : -90)
    }
}
