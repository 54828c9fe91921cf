import Testing

@testable import MeridianCore

/// The Swift geodesic gives PROJ's results: bit for bit on x86-64 with glibc; the tolerances (a few units in the last
/// place of a distance, 1e-12°) leave room for a C compiler that fuses multiply-adds where Swift does not.
@Suite("Geodesic agrees with PROJ")
struct GeodesicAgreementTests {
    static let ellipsoids: [(a: Double, f: Double)] = [
        (6_378_137, 1 / 298.257223563), (6_378_137, 1.0 / 150), (6_378_137, -1.0 / 300), (6_378_137, 1.0 / 50)
    ]

    @Test("inverse: same distance and azimuths as geod_inverse", arguments: InverseFamily.allCases)
    func inverse(family: InverseFamily) {
        Self.onEachEllipsoid(seed: UInt64(InverseFamily.allCases.firstIndex(of: family)!)) { geodesic, proj, random in
            let pair = family.pair(&random)
            let (from, to) = (pair.from, pair.to)
            let mine = geodesic.solveInverse(from, to)
            let reference = proj.inverse(from.latitude, from.longitude, to.latitude, to.longitude)
            let f = geodesic.flattening
            #expect(Self.close(mine.distance, reference.distance), "\(pair) f = \(f)")
            #expect(Self.close(degrees: mine.initialAzimuth, reference.azimuth1), "\(pair) f = \(f)")
            #expect(Self.close(degrees: mine.finalAzimuth, reference.azimuth2), "\(pair) f = \(f)")
        }
    }

    @Test("direct: same end point and azimuth as geod_direct", arguments: DirectFamily.allCases)
    func direct(family: DirectFamily) {
        Self.onEachEllipsoid(seed: 0xD00 | UInt64(DirectFamily.allCases.firstIndex(of: family)!)) {
            geodesic, proj, random in
            let problem = family.directCase(&random)
            let start = problem.start
            let mine = geodesic.solveDirect(start, azimuth: problem.azimuth, distance: problem.distance)
            let reference = proj.direct(start.latitude, start.longitude, problem.azimuth, problem.distance)
            let f = geodesic.flattening
            #expect(Self.close(degrees: mine.latitude, reference.latitude), "\(problem) f = \(f)")
            #expect(Self.close(degrees: mine.longitude, reference.longitude), "\(problem) f = \(f)")
            #expect(Self.close(degrees: mine.azimuth, reference.azimuth), "\(problem) f = \(f)")
        }
    }

    /// Runs `check` 4,000 times on WGS84 and 1,000 times on each other ellipsoid, with the Swift and the PROJ geodesic
    /// of that ellipsoid and a generator seeded from `seed` and the ellipsoid.
    private static func onEachEllipsoid(
        seed: UInt64, _ check: (Geodesic, ProjGeodesic, inout SeededRandom) -> Void
    ) {
        for (index, (a, f)) in ellipsoids.enumerated() {
            let geodesic = Geodesic(equatorialRadius: a, flattening: f)
            let proj = ProjGeodesic(equatorialRadius: a, flattening: f)
            var random = SeededRandom(seed: UInt64(index) << 32 | seed)
            for _ in 0..<(index == 0 ? 4000 : 1000) { check(geodesic, proj, &random) }
        }
    }

    /// Distances within four units in the last place of the larger (8 nm at 20,000 km).
    static func close(_ a: Double, _ b: Double) -> Bool {
        a == b || abs(a - b) <= 4 * max(abs(a), abs(b)).ulp
    }

    /// Angles within 1e-12°, the same angle either side of ±180° included.
    static func close(degrees a: Double, _ b: Double) -> Bool {
        let difference = abs(a - b)
        return a == b || difference <= 1e-12 || abs(difference - 360) <= 1e-12
    }

    @Test("distance and distanceAndBearing are inverse's")
    func partialResults() {
        var random = SeededRandom(seed: 7)
        for family in InverseFamily.allCases {
            for _ in 0..<200 {
                let pair = family.pair(&random)
                let full = Geodesic.wgs84.inverse(from: pair.from, to: pair.to)
                let partial = Geodesic.wgs84.distanceAndBearing(from: pair.from, to: pair.to)
                #expect(Geodesic.wgs84.distance(pair.from, pair.to) == full.distance)
                #expect(partial.distance == full.distance && partial.initialBearing == full.initialBearing)
            }
        }
    }
}
