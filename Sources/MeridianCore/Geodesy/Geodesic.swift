import CProj

/// Geodesic computations on an ellipsoid, backed by PROJ's implementation of
/// Karney's algorithms (accurate to about 15 nanometres).
///
/// PROJ's functions take latitude before longitude; `Coordinate` keeps that order.
public struct Geodesic: Sendable {
    /// Semi-major axis, metres.
    public let equatorialRadius: Double
    /// Flattening.
    public let flattening: Double
    private let geodesic: geod_geodesic

    /// The WGS84 ellipsoid used by GPS.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137.0, flattening: 1 / 298.257223563)

    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        var geodesic = geod_geodesic()
        geod_init(&geodesic, equatorialRadius, flattening)
        self.geodesic = geodesic
    }

    /// Solution of the inverse problem between two points.
    public struct Inverse: Sendable, Equatable {
        /// Distance along the geodesic, metres.
        public var distance: Double
        /// Azimuth at the start, degrees clockwise from north, in 0..<360.
        public var initialBearing: Double
        /// Azimuth at the end (direction of travel on arrival), degrees in 0..<360.
        public var finalBearing: Double
    }

    /// Shortest geodesic between `from` and `to`.
    public func inverse(from: Coordinate, to: Coordinate) -> Inverse {
        var azimuth1 = 0.0, azimuth2 = 0.0
        let distance = solveInverse(from, to, &azimuth1, &azimuth2)
        return Inverse(
            distance: distance, initialBearing: Self.normalizedBearing(azimuth1),
            finalBearing: Self.normalizedBearing(azimuth2))
    }

    /// The distance and initial bearing of the shortest geodesic: `inverse`'s, without the final bearing.
    public func distanceAndBearing(from: Coordinate, to: Coordinate) -> (distance: Double, initialBearing: Double) {
        var azimuth1 = 0.0
        let distance = solveInverse(from, to, &azimuth1, nil)
        return (distance, Self.normalizedBearing(azimuth1))
    }

    /// Distance in metres between two points.
    public func distance(_ from: Coordinate, _ to: Coordinate) -> Double {
        solveInverse(from, to, nil, nil)
    }

    /// PROJ's inverse solution: the distance, and the azimuths asked for (each one it is not asked for saves it an
    /// arctangent).
    private func solveInverse(
        _ from: Coordinate, _ to: Coordinate, _ azimuth1: UnsafeMutablePointer<Double>?,
        _ azimuth2: UnsafeMutablePointer<Double>?
    ) -> Double {
        var distance = 0.0
        withUnsafePointer(to: geodesic) { pointer in
            geod_inverse(
                pointer, from.latitude, from.longitude, to.latitude, to.longitude, &distance, azimuth1, azimuth2)
        }
        return distance
    }

    /// Solution of the direct problem.
    public struct Direct: Sendable, Equatable {
        /// Where the geodesic ends.
        public var destination: Coordinate
        /// Azimuth at the destination, degrees in 0..<360.
        public var finalBearing: Double
    }

    /// Travels `distance` metres from `start` along initial azimuth `bearing` (degrees).
    public func direct(from start: Coordinate, bearing: Double, distance: Double) throws(CoordinateError) -> Direct {
        guard bearing.isFinite else { throw .notFinite(name: "bearing", value: bearing) }
        guard distance.isFinite else { throw .notFinite(name: "distance", value: distance) }
        var latitude = 0.0, longitude = 0.0, azimuth2 = 0.0
        withUnsafePointer(to: geodesic) { pointer in
            geod_direct(
                pointer, start.latitude, start.longitude, bearing, distance,
                &latitude, &longitude, &azimuth2)
        }
        let destination = try Coordinate(latitude: latitude, longitude: Self.normalizedLongitude(longitude))
        return Direct(destination: destination, finalBearing: Self.normalizedBearing(azimuth2))
    }

    /// Length in metres of the polyline through `points` (0 for fewer than two points).
    public func length<Points: Sequence>(of points: Points) -> Double where Points.Element == Coordinate {
        var total = 0.0
        var previous: Coordinate?
        for point in points {
            if let previous { total += distance(previous, point) }
            previous = point
        }
        return total
    }

    /// Maps any angle to 0..<360.
    public static func normalizedBearing(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        if value >= 360 || value == 0 { value = 0 }
        return value
    }

    /// Maps any longitude to -180...180 (180 stays 180).
    public static func normalizedLongitude(_ degrees: Double) -> Double {
        if (-180...180).contains(degrees) { return degrees == 0 ? 0 : degrees }
        var value = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }
}
