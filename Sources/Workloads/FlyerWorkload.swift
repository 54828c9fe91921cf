import FlyerProximity
import Foundation
import MeridianCore

/// Seeded generator of flyers and query points: clusters around cities plus a uniform
/// share over the globe, for tests and `meridian-bench proximity`.
package struct FlyerWorkload: Sendable {
    package struct Settings: Sendable {
        package var seed: UInt64
        /// Share of flyers (and queries) placed uniformly over the globe; the rest cluster around cities.
        package var uniformShare: Double
        /// Share of flyers that are areas (small polygons, some multi-part).
        package var areaShare: Double
        /// Include clusters at ±180° and near the poles (beyond ±85.05°, which Redis cannot store).
        package var includePolar: Bool
        /// Share of flyers that are expired or not yet valid at `referenceTime`.
        package var inactiveShare: Double
        package var referenceTime: Date

        package init(
            seed: UInt64 = 42, uniformShare: Double = 0.2, areaShare: Double = 0, includePolar: Bool = false,
            inactiveShare: Double = 0, referenceTime: Date = Date(timeIntervalSince1970: 1_750_000_000)
        ) {
            self.seed = seed
            self.uniformShare = uniformShare
            self.areaShare = areaShare
            self.includePolar = includePolar
            self.inactiveShare = inactiveShare
            self.referenceTime = referenceTime
        }
    }

    package static let categories = ["food", "event", "lost", "sale", "music"]

    /// (latitude, longitude, spread in metres) of cluster centres.
    private static let cities: [(Double, Double, Double)] = [
        (48.8566, 2.3522, 8000), (51.5074, -0.1278, 10000), (40.7128, -74.0060, 9000), (35.6762, 139.6503, 12000),
        (-33.8688, 151.2093, 9000), (52.5200, 13.4050, 7000), (-23.5505, -46.6333, 11000), (19.4326, -99.1332, 10000),
        (1.3521, 103.8198, 5000), (55.7558, 37.6173, 9000), (-36.8485, 174.7633, 6000), (64.1466, -21.9426, 3000),
        (-17.7134, 178.0650, 4000), (65.0, -179.9, 5000), (-16.5, 179.95, 4000), (0.0, 180.0, 3000)
    ]
    private static let polarCities: [(Double, Double, Double)] = [
        (89.95, 0.0, 8000), (-89.9, 135.0, 6000), (84.9, 179.99, 5000), (-88.0, -179.5, 5000)
    ]

    package var settings: Settings
    private var random: SeededRandom

    package init(_ settings: Settings) {
        self.settings = settings
        random = SeededRandom(seed: settings.seed)
    }

    /// The next flyer, with id `f` + its zero-padded number.
    package mutating func flyer(number: Int) -> Flyer {
        let center = location()
        let id = "f" + String(repeating: "0", count: max(0, 7 - String(number).count)) + String(number)
        let geometry: FlyerGeometry = random.unit() < settings.areaShare ? area(around: center) : .point(center)
        let categoryIndex = Int(random.next() % UInt64(Self.categories.count + 1))
        var validFrom: Date?, validUntil: Date?
        let validity = random.unit()
        if validity < settings.inactiveShare / 2 {
            validUntil = settings.referenceTime.addingTimeInterval(-86_400 * (1 + 30 * random.unit()))
        } else if validity < settings.inactiveShare {
            validFrom = settings.referenceTime.addingTimeInterval(86_400 * (1 + 30 * random.unit()))
        } else if validity < settings.inactiveShare + 0.1 {
            validFrom = settings.referenceTime.addingTimeInterval(-86_400)
            validUntil = settings.referenceTime.addingTimeInterval(86_400)
        }
        // Whole milliseconds, as ISO 8601 text carries them.
        let milliseconds = { (date: Date?) in
            date.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
        }
        return Flyer(
            id: id, title: "Flyer \(number % 5000)",
            category: categoryIndex < Self.categories.count ? Self.categories[categoryIndex] : nil,
            radiusM: (50 + 250 * random.unit()).rounded(), validFrom: milliseconds(validFrom),
            validUntil: milliseconds(validUntil),
            geometry: geometry)
    }

    /// The benchmarks' catalogue: `count` flyers from `seed` (80 % clustered around cities, 20 % uniform),
    /// validity judged at `now`, with titles, descriptions and addresses (`FlyerText`).
    package static func benchmarkFlyers(count: Int, seed: UInt64, now: Date) -> [Flyer] {
        var workload = FlyerWorkload(.init(seed: seed, uniformShare: 0.2, referenceTime: now))
        return (0..<count).map { FlyerText.described(workload.flyer(number: $0), number: $0, seed: seed) }
    }

    /// The benchmarks' query points for the catalogue of `seed`: `count` points from the same distribution.
    package static func benchmarkQueries(count: Int, seed: UInt64) -> [Coordinate] {
        var workload = FlyerWorkload(.init(seed: seed &+ 1, uniformShare: 0.2))
        return (0..<count).map { _ in workload.queryPoint() }
    }

    /// A query point from the same distribution as the flyers.
    package mutating func queryPoint() -> Coordinate {
        location()
    }

    /// A uniform random number in 0..<1 (for callers choosing query parameters).
    package mutating func unit() -> Double {
        random.unit()
    }

    private mutating func location() -> Coordinate {
        if random.unit() < settings.uniformShare {
            let limit = settings.includePolar ? 1.0 : sin(85 * Double.pi / 180)
            let latitude = asin((2 * random.unit() - 1) * limit) * 180 / .pi
            return Coordinate.clamped(latitude: latitude, longitude: random.unit() * 360 - 180) ?? fallback
        }
        let pool = settings.includePolar ? Self.cities + Self.polarCities : Self.cities
        let (latitude, longitude, spread) = pool[Int(random.next() % UInt64(pool.count))]
        let center = Coordinate.clamped(latitude: latitude, longitude: longitude) ?? fallback
        // Rayleigh-distributed distance: a 2D Gaussian cloud around the centre.
        let distance = spread * (-2 * log(max(1e-12, random.unit()))).squareRoot()
        guard
            let point = try? Geodesic.wgs84.direct(from: center, bearing: random.unit() * 360, distance: distance)
                .destination
        else {
            return center
        }
        if !settings.includePolar && abs(point.latitude) > 85 { return center }
        return point
    }

    private var fallback: Coordinate { .zero }

    /// A star-shaped polygon (sometimes two, as a MultiPolygon) of 20 m to 3 km around `center`.
    private mutating func area(around center: Coordinate) -> FlyerGeometry {
        let parts = random.unit() < 0.2 ? 2 : 1
        var polygons: [[[Coordinate]]] = []
        for part in 0..<parts {
            let partCenter =
                part == 0
                ? center
                : (try? Geodesic.wgs84.direct(from: center, bearing: random.unit() * 360, distance: 5000).destination)
                    ?? center
            let size = 20 * pow(150, random.unit())
            let corners = 3 + Int(random.next() % 6)
            let start = random.unit() * 360
            var ring: [Coordinate] = []
            for corner in 0..<corners {
                let bearing = start + Double(corner) * 360 / Double(corners) + random.unit() * 20
                let distance = size * (0.5 + random.unit())
                ring.append(
                    (try? Geodesic.wgs84.direct(from: partCenter, bearing: bearing, distance: distance).destination)
                        ?? partCenter)
            }
            ring.append(ring[0])
            polygons.append([ring])
        }
        return polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
    }
}

extension SeededRandom {
    /// Uniform in 0..<1 from the top 53 bits (the sequence the workloads were generated with).
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
