import Testing

@testable import MeridianCore

/// Cases from GeographicLib's own test suite (GeodSolve), checking the conventions at the edges: antipodal points on
/// and near the equator, prolate ellipsoids, poles, short lines.
@Suite("Geodesic: GeographicLib's edge cases")
struct GeodesicKnownCasesTests {
    private func inverse(
        _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, on geodesic: Geodesic = .wgs84
    ) -> Geodesic.InverseSolution {
        geodesic.solveInverse(
            try! Coordinate(latitude: lat1, longitude: lon1), try! Coordinate(latitude: lat2, longitude: lon2))
    }

    private func expect(
        _ solution: Geodesic.InverseSolution, _ azi1: Double, _ azi2: Double, _ s12: Double,
        azimuthTolerance: Double = 0.5e-5, distanceTolerance: Double = 0.5,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(abs(solution.initialAzimuth - azi1) <= azimuthTolerance, sourceLocation: sourceLocation)
        #expect(abs(solution.finalAzimuth - azi2) <= azimuthTolerance, sourceLocation: sourceLocation)
        #expect(abs(solution.distance - s12) <= distanceTolerance, sourceLocation: sourceLocation)
    }

    @Test("JFK to CDG")
    func jfkToCDG() {
        expect(inverse(40.6, -73.8, 49.01666667, 2.55), 53.47022, 111.59367, 5_853_226)
    }

    @Test("nearly antipodal points across the equator")
    func nearlyAntipodal() {
        let prolate = Geodesic(equatorialRadius: 6.4e6, flattening: -1.0 / 150)
        expect(inverse(0.07476, 0, -0.07476, 180, on: prolate), 90.00078, 90.00078, 20_106_193)
        expect(inverse(0.1, 0, -0.1, 180, on: prolate), 90.00105, 90.00105, 20_106_193)
        #expect(
            abs(inverse(56.320923501171, 0, -56.320923501171, 179.664747671772880215).distance - 19_993_558.287)
                <= 0.5e-3)
        #expect(
            abs(
                inverse(52.784459512564, 0, -52.784459512563990912, 179.634407464943777557).distance
                    - 19_991_596.095) <= 0.5e-3)
        #expect(
            abs(
                inverse(48.522876735459, 0, -48.52287673545898293, 179.599720456223079643).distance
                    - 19_989_144.774) <= 0.5e-3)
    }

    @Test("short line at 36°N")
    func shortLine() {
        #expect(abs(inverse(36.493349428792, 0, 36.49334942879201, 0.0000008).distance - 0.072) <= 0.5e-3)
    }

    @Test("along and across the equator, oblate, spherical and prolate")
    func equator() {
        expect(inverse(0, 0, 0, 179), 90, 90, 19_926_189)
        expect(inverse(0, 0, 0, 179.5), 55.96650, 124.03350, 19_980_862)
        expect(inverse(0, 0, 0, 180), 0, 180, 20_003_931)
        expect(inverse(0, 0, 1, 180), 0, 180, 19_893_357)
        let sphere = Geodesic(equatorialRadius: 6.4e6, flattening: 0)
        expect(inverse(0, 0, 0, 179, on: sphere), 90, 90, 19_994_492)
        expect(inverse(0, 0, 0, 180, on: sphere), 0, 180, 20_106_193)
        expect(inverse(0, 0, 1, 180, on: sphere), 0, 180, 19_994_492)
        let prolate = Geodesic(equatorialRadius: 6.4e6, flattening: -1.0 / 300)
        expect(inverse(0, 0, 0, 179, on: prolate), 90, 90, 19_994_492)
        expect(inverse(0, 0, 0, 180, on: prolate), 90, 90, 20_106_193)
        expect(inverse(0, 0, 0.5, 180, on: prolate), 33.02493, 146.97364, 20_082_617)
        expect(inverse(0, 0, 1, 180, on: prolate), 0, 180, 20_027_270)
    }

    @Test("a meridian through a tiny longitude offset")
    func nearlyMeridional() {
        let solution = inverse(5, 0.00000000000001, 10, 180)
        #expect(abs(solution.initialAzimuth - 0.000000000000035) <= 1.5e-14)
        #expect(abs(solution.finalAzimuth - 179.99999999999996) <= 1.5e-14)
        #expect(abs(solution.distance - 18_345_191.174332713) <= 5e-9)
    }

    @Test("a metre-scale line, to 1 nm")
    func precision() {
        expect(
            inverse(54.1589, 15.3872, 54.1591, 15.3877), 55.723110355, 55.723515675, 39.527686385,
            azimuthTolerance: 5e-9, distanceTolerance: 5e-9)
        expect(
            inverse(37.757540000000006, -122.47018, 37.75754, -122.470177), 89.99999927, 90.00000111, 0.264,
            azimuthTolerance: 0.5e-8, distanceTolerance: 0.5e-3)
    }

    @Test("direct from the north pole, backwards")
    func fromPole() throws {
        let end = Geodesic.wgs84.solveDirect(try Coordinate(latitude: 90, longitude: 10), azimuth: 180, distance: -1e6)
        #expect(abs(end.latitude - 81.04623) <= 0.5e-5)
        #expect(abs(end.longitude - -170) <= 0.5e-5)
        #expect(abs(end.azimuth) <= 0.5e-5)
        #expect(end.azimuth.sign == .plus)
    }

    @Test("the astroid's root")
    func astroid() {
        // k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0
        for (x, y) in [(-0.5, -0.5), (-1.2, -0.01), (0.3, -2.0), (-0.9, -1e-5)] {
            let k = Geodesic.astroid(x, y)
            let residual = k * k * k * k + 2 * k * k * k - (x * x + y * y - 1) * k * k - 2 * y * y * k - y * y
            #expect(k > 0 && abs(residual) < 1e-12)
        }
        #expect(Geodesic.astroid(0.5, 0) == 0)
    }
}
