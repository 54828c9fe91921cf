@testable import MeridianCore

#if canImport(Glibc)
    import Glibc
#endif

/// Two points, degrees.
struct PointPair: Sendable {
    var lat1, lon1, lat2, lon2: Double

    init(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) {
        (self.lat1, self.lon1, self.lat2, self.lon2) = (lat1, lon1, lat2, lon2)
    }

    var from: Coordinate { try! Coordinate(latitude: lat1, longitude: lon1) }
    var to: Coordinate { try! Coordinate(latitude: lat2, longitude: lon2) }
}

/// A start, an azimuth (degrees) and a distance (metres) for the direct problem.
struct DirectCase: Sendable {
    var lat1, lon1, azimuth, distance: Double

    init(lat1: Double, lon1: Double, azimuth: Double, distance: Double) {
        (self.lat1, self.lon1, self.azimuth, self.distance) = (lat1, lon1, azimuth, distance)
    }

    var start: Coordinate { try! Coordinate(latitude: lat1, longitude: lon1) }
}

/// Metres per degree of latitude, roughly: enough to place test points at a given distance.
private let metresPerDegree = 111_000.0

/// Families of inverse problems: uniform on the sphere, and the ones where the algorithm has special cases.
enum InverseFamily: String, CaseIterable, Sendable {
    case uniform
    /// Within 0.001°…1° of the antipode.
    case nearlyAntipodal
    /// Within 1e-12°…1e-3° of the antipode, or exactly antipodal.
    case veryNearlyAntipodal
    /// On or within a hair of the equator, including nearly antipodal points along it.
    case equatorial
    /// On one meridian or on opposite ones, or a hair off.
    case meridional
    /// At or near a pole (±90 exactly for a third of them).
    case polar
    /// The same point twice (also ±180 longitudes and poles at different longitudes).
    case coincident
    /// Across the ±180° meridian.
    case antimeridian
    /// 1 nm … 1 m apart.
    case veryShort
    /// Up to 5 km apart: what the nearby search asks.
    case cityScale
    /// Values with extreme digits: subnormals, ±0, one ulp from 0/45/90/135/180, full 17-digit decimals.
    case extremeDigits

    func pair(_ random: inout SeededRandom) -> PointPair {
        switch self {
        case .uniform:
            let (lat1, lon1) = randomPoint(&random)
            let (lat2, lon2) = randomPoint(&random)
            return PointPair(lat1, lon1, lat2, lon2)
        case .nearlyAntipodal, .veryNearlyAntipodal:
            let (lat1, lon1) = randomPoint(&random)
            let offset =
                self == .nearlyAntipodal
                ? random.logUniform(-3...0) : (random.unit() < 0.1 ? 0 : random.logUniform(-12...(-3)))
            let direction = random.uniform(0...(2 * .pi))
            return PointPair(
                lat1, lon1, latitude(-lat1 + offset * cos(direction)), longitude(lon1 + 180 + offset * sin(direction)))
        case .equatorial:
            let lat1 = nearEquator(&random)
            let lat2 = nearEquator(&random)
            let lon1 = random.uniform(-180...180)
            let lon12 =
                random.unit() < 0.5 ? random.uniform(-180...180) : random.sign() * (180 - random.logUniform(-8...0.5))
            return PointPair(lat1, lon1, lat2, longitude(lon1 + lon12))
        case .meridional:
            let lat1 = randomLatitude(&random)
            let lat2 = randomLatitude(&random)
            let lon1 = random.uniform(-180...180)
            var lon2 = random.unit() < 0.5 ? lon1 : lon1 + 180
            if random.unit() < 0.25 { lon2 += random.sign() * random.logUniform(-15...(-6)) }
            return PointPair(lat1, lon1, lat2, longitude(lon2))
        case .polar:
            let lat1 = random.sign() * (random.unit() < 0.35 ? 90 : 90 - random.logUniform(-13...(-1)))
            let lat2 =
                random.unit() < 0.3
                ? random.sign() * (random.unit() < 0.5 ? 90 : 90 - random.logUniform(-13...(-1)))
                : randomLatitude(&random)
            return PointPair(lat1, random.uniform(-180...180), lat2, random.uniform(-180...180))
        case .coincident:
            let (lat, lon) = random.unit() < 0.8 ? randomPoint(&random) : extremePoint(&random)
            switch random.next() % 4 {
            case 0: return PointPair(lat, 180, lat, -180)
            case 1:
                let pole = random.sign() * 90
                return PointPair(pole, lon, pole, random.uniform(-180...180))
            default: return PointPair(lat, lon, lat, lon)
            }
        case .antimeridian:
            let lat1 = randomLatitude(&random)
            let lat2 = random.unit() < 0.5 ? lat1 + random.uniform(-1...1) : randomLatitude(&random)
            let lon1 = 180 - random.logUniform(-12...0.5)
            let lon2 = -180 + random.logUniform(-12...0.5)
            return random.unit() < 0.5
                ? PointPair(lat1, lon1, latitude(lat2), lon2) : PointPair(lat1, -lon1, latitude(lat2), -lon2)
        case .veryShort:
            return nearby(&random, metres: random.logUniform(-9...0))
        case .cityScale:
            return nearby(&random, metres: random.uniform(0...5000))
        case .extremeDigits:
            let (lat1, lon1) = extremePoint(&random)
            let (lat2, lon2) = random.unit() < 0.7 ? extremePoint(&random) : randomPoint(&random)
            return PointPair(lat1, lon1, lat2, lon2)
        }
    }
}

/// Families of direct problems.
enum DirectFamily: String, CaseIterable, Sendable {
    /// Random start and azimuth, distance in ±20,000 km.
    case uniform
    /// 1 nm … 5 km, either sign.
    case short
    /// From a pole or near one.
    case polar
    /// From the equator, often along it.
    case equatorial
    /// Azimuths that are multiples of 45°, also beyond ±360.
    case cardinal
    /// 20,000 km … 60,000 km, more than once around.
    case long
    /// Extreme digits in the start, azimuth and distance.
    case extremeDigits

    func directCase(_ random: inout SeededRandom) -> DirectCase {
        let (lat, lon) = randomPoint(&random)
        let azimuth = random.uniform(-360...360)
        let distance = random.uniform(-2e7...2e7)
        switch self {
        case .uniform:
            return DirectCase(lat1: lat, lon1: lon, azimuth: azimuth, distance: distance)
        case .short:
            return DirectCase(
                lat1: lat, lon1: lon, azimuth: azimuth, distance: random.sign() * random.logUniform(-9...3.7))
        case .polar:
            let pole = random.sign() * (random.unit() < 0.5 ? 90 : 90 - random.logUniform(-13...(-1)))
            return DirectCase(lat1: pole, lon1: lon, azimuth: azimuth, distance: distance)
        case .equatorial:
            let along = random.unit() < 0.5
            return DirectCase(
                lat1: random.unit() < 0.5 ? 0 : nearEquator(&random), lon1: lon,
                azimuth: along ? random.sign() * 90 : azimuth, distance: distance)
        case .cardinal:
            return DirectCase(
                lat1: lat, lon1: lon, azimuth: 45 * Double(Int(random.next() % 33) - 16), distance: distance)
        case .long:
            return DirectCase(
                lat1: lat, lon1: lon, azimuth: azimuth, distance: random.sign() * random.uniform(2e7...6e7))
        case .extremeDigits:
            let (lat, lon) = extremePoint(&random)
            let azimuths = [
                0, -0.0, Double.leastNonzeroMagnitude, 90.0.nextDown, 180.0.nextUp, -180, 1e-300, 359.99999999999994,
                1e9
            ]
            let az = random.unit() < 0.5 ? azimuths[Int(random.next() % UInt64(azimuths.count))] : azimuth
            let distances = [
                0, -0.0, Double.leastNonzeroMagnitude, 1e-300, 1e-9, 20_003_931.458625447, 10_001_965.729312723,
                distance
            ]
            return DirectCase(
                lat1: lat, lon1: lon, azimuth: az, distance: distances[Int(random.next() % UInt64(distances.count))])
        }
    }
}

/// Uniform on the sphere.
func randomPoint(_ random: inout SeededRandom) -> (latitude: Double, longitude: Double) {
    (randomLatitude(&random), random.uniform(-180...180))
}

private func randomLatitude(_ random: inout SeededRandom) -> Double {
    min(90, max(-90, asin(random.uniform(-1...1)) * 180 / .pi))
}

/// Random points `metres` apart, roughly, in a random direction.
func nearby(_ random: inout SeededRandom, metres: Double) -> PointPair {
    let (lat1, lon1) = randomPoint(&random)
    let direction = random.uniform(0...(2 * .pi))
    let degrees = metres / metresPerDegree
    let lat2 = latitude(lat1 + degrees * cos(direction))
    let lon2 = longitude(lon1 + degrees * sin(direction) / max(0.01, cos(lat1 * .pi / 180)))
    return PointPair(lat1, lon1, lat2, lon2)
}

private func nearEquator(_ random: inout SeededRandom) -> Double {
    random.unit() < 0.4 ? 0 : random.sign() * random.logUniform(-25...(-1))
}

/// Latitudes past a pole folded back.
private func latitude(_ value: Double) -> Double {
    if value > 90 { return 180 - value }
    if value < -90 { return -180 - value }
    return value
}

private func longitude(_ value: Double) -> Double { Geodesic.normalizedLongitude(value) }

private func extremePoint(_ random: inout SeededRandom) -> (latitude: Double, longitude: Double) {
    let latitudes: [Double] = [
        0, -0.0, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1e-300, 2.2250738585072014e-308, 1e-20,
        45, 45.0.nextUp, 45.0.nextDown,
        -45.0.nextUp, 90, -90, 90.0.nextDown, -90.0.nextDown.nextDown, 89.99999999999999, 1.0 / 3,
        0.1, 60.000000000000007, -33.868800000000001
    ]
    let longitudes: [Double] =
        latitudes + [
            135, 135.0.nextUp, 135.0.nextDown, 180, -180, 180.0.nextDown, (-180.0).nextUp, 179.99999999999997,
            90.0.nextUp,
            -135, 0.30000000000000004
        ]
    // Full-precision decimals otherwise.
    let lat = random.unit() < 0.5 ? latitudes[Int(random.next() % UInt64(latitudes.count))] : randomLatitude(&random)
    let lon =
        random.unit() < 0.5
        ? longitudes[Int(random.next() % UInt64(longitudes.count))] : random.uniform(-180...180)
    return (lat, lon)
}

extension SeededRandom {
    /// Uniform in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// 10^x for x uniform in `exponents`.
    mutating func logUniform(_ exponents: ClosedRange<Double>) -> Double { pow(10, uniform(exponents)) }

    /// +1 or -1.
    mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
}
