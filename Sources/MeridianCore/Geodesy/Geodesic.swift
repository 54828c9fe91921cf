/// Geodesic computations on an ellipsoid of revolution: Karney's algorithms ("Algorithms for geodesics", J. Geodesy
/// 87, 43–55, 2013) with sixth-order series, accurate to about 15 nanometres on the Earth, and giving the same results
/// as GeographicLib's and PROJ's `geod_inverse` and `geod_direct`.
public struct Geodesic: Sendable {
    /// Semi-major axis, metres.
    public let equatorialRadius: Double
    /// Flattening (negative for a prolate ellipsoid).
    public let flattening: Double
    /// Polar semi-axis b = a (1 - f).
    let b: Double
    /// 1 - f.
    let f1: Double
    /// Second eccentricity squared, e′² = f (2 - f) / (1 - f)².
    let ep2: Double
    /// Third flattening, n = f / (2 - f).
    let n: Double
    /// Below this spherical arc (radians) the inverse problem's starting estimate is its solution.
    let etol2: Double
    /// The longitude integral's series for this ellipsoid.
    let i3: LongitudeSeries

    /// The WGS84 ellipsoid used by GPS.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137.0, flattening: 1 / 298.257223563)

    /// An ellipsoid with semi-major axis `equatorialRadius` and `flattening` (oblate or prolate). The series keep
    /// errors to tens of nanometres for |flattening| ≤ 1/50.
    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        f1 = 1 - flattening
        b = equatorialRadius * f1
        ep2 = flattening * (2 - flattening) / (f1 * f1)
        n = flattening / (2 - flattening)
        // 0.1 √ε / √(max(0.001, |f|) min(1, 1 - f/2) / 2)
        etol2 = 0.1 * Self.tol2 / (max(0.001, abs(flattening)) * min(1, 1 - flattening / 2) / 2).squareRoot()
        i3 = LongitudeSeries(thirdFlattening: n)
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
        let solution = solveInverse(from, to)
        return Inverse(
            distance: solution.distance, initialBearing: Self.normalizedBearing(solution.initialAzimuth),
            finalBearing: Self.normalizedBearing(solution.finalAzimuth))
    }

    /// The distance and initial bearing of the shortest geodesic: `inverse`'s, without the final bearing.
    public func distanceAndBearing(from: Coordinate, to: Coordinate) -> (distance: Double, initialBearing: Double) {
        let solution = solveInverse(from, to)
        return (solution.distance, Self.normalizedBearing(solution.initialAzimuth))
    }

    /// Distance in metres between two points.
    public func distance(_ from: Coordinate, _ to: Coordinate) -> Double {
        solveInverse(from, to).distance
    }

    /// Solution of the direct problem.
    public struct Direct: Sendable, Equatable {
        /// Where the geodesic ends.
        public var destination: Coordinate
        /// Azimuth at the destination, degrees in 0..<360.
        public var finalBearing: Double
    }

    /// Travels `distance` metres (backwards if negative) from `start` along initial azimuth `bearing` (degrees).
    public func direct(from start: Coordinate, bearing: Double, distance: Double) throws(CoordinateError) -> Direct {
        guard bearing.isFinite else { throw .notFinite(name: "bearing", value: bearing) }
        guard distance.isFinite else { throw .notFinite(name: "distance", value: distance) }
        let end = solveDirect(start, azimuth: bearing, distance: distance)
        let destination = try Coordinate(latitude: end.latitude, longitude: Self.normalizedLongitude(end.longitude))
        return Direct(destination: destination, finalBearing: Self.normalizedBearing(end.azimuth))
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
