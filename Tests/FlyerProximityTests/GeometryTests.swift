import Foundation
import MeridianCore
import Testing
import Workloads

@testable import FlyerProximity

@Suite("geodesic edge distance and containment")
struct GeometryTests {
    /// Reference minimum along the edge: a dense scan, then golden-section refinement around the best sample.
    private func referenceMinimum(_ point: Coordinate, _ start: Coordinate, _ end: Coordinate) throws -> Double {
        let geodesic = Geodesic.wgs84
        let line = geodesic.inverse(from: start, to: end)
        func distance(_ along: Double) throws -> Double {
            geodesic.distance(
                point, try geodesic.direct(from: start, bearing: line.initialBearing, distance: along).destination)
        }
        let samples = 400
        var bestIndex = 0
        var best = Double.infinity
        for index in 0...samples {
            let value = try distance(line.distance * Double(index) / Double(samples))
            if value < best {
                best = value
                bestIndex = index
            }
        }
        var low = line.distance * Double(max(0, bestIndex - 1)) / Double(samples)
        var high = line.distance * Double(min(samples, bestIndex + 1)) / Double(samples)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<80 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            if try distance(a) < distance(b) { high = b } else { low = a }
        }
        return min(best, try distance((low + high) / 2))
    }

    @Test("point-to-edge distance is within 1 mm of a dense geodesic search, from 10 m to 300 km")
    func edgeDistance() throws {
        var random = SeededRandom(seed: 99)
        let geodesic = Geodesic.wgs84
        for number in 0..<300 {
            let scale = 10 * pow(30_000, random.unit())
            let latitude = number % 10 == 0 ? 88 + random.unit() * 1.9 : random.unit() * 160 - 80
            let longitude = number % 7 == 0 ? 179.99 : random.unit() * 360 - 180
            let start = try Coordinate(latitude: latitude, longitude: longitude)
            let end = try geodesic.direct(from: start, bearing: random.unit() * 360, distance: scale).destination
            let middle = try geodesic.direct(
                from: start, bearing: geodesic.inverse(from: start, to: end).initialBearing,
                distance: scale * (random.unit() * 1.6 - 0.3)
            ).destination
            let point = try geodesic.direct(from: middle, bearing: random.unit() * 360, distance: scale * random.unit())
                .destination
            let edge = GeodesicEdge(from: start, to: end)
            let got = edge.nearest(to: point)
            let want = try referenceMinimum(point, start, end)
            #expect(abs(got.distance - want) < 0.001, "edge \(start) → \(end), point \(point)")
            #expect(abs(geodesic.distance(point, got.point) - got.distance) < 1e-6)
        }
    }

    private func square(_ latitude: Double, _ longitude: Double, half: Double) throws -> [Coordinate] {
        try [(-half, -half), (-half, half), (half, half), (half, -half), (-half, -half)].map {
            try Coordinate(latitude: latitude + $0.0, longitude: Geodesic.normalizedLongitude(longitude + $0.1))
        }
    }

    @Test("inside is 0, outside is the distance to the nearest edge, holes count as outside")
    func polygonDistance() throws {
        let outer = try square(48.85, 2.35, half: 0.01)
        let hole = try square(48.85, 2.35, half: 0.002)
        let area = try #require(AreaShape([[outer, hole]]))
        #expect(area.distance(to: try Coordinate(latitude: 48.855, longitude: 2.35)).distance == 0)
        let inHole = area.distance(to: try Coordinate(latitude: 48.85, longitude: 2.35))
        #expect(abs(inHole.distance - 0.002 * 111_200) < 300)
        let north = try Coordinate(latitude: 48.87, longitude: 2.35)
        let outside = area.distance(to: north)
        #expect(
            abs(outside.distance - Geodesic.wgs84.distance(north, try Coordinate(latitude: 48.86, longitude: 2.35))) < 1
        )
    }

    @Test("areas across the antimeridian and around a pole")
    func awkwardAreas() throws {
        let across = try #require(AreaShape([[try square(-16.5, 180, half: 0.05)]]))
        #expect(across.contains(try Coordinate(latitude: -16.5, longitude: -179.98)))
        #expect(across.contains(try Coordinate(latitude: -16.5, longitude: 179.98)))
        #expect(!across.contains(try Coordinate(latitude: -16.5, longitude: 179.9)))
        #expect(across.boxes.count == 2)

        let cap = try (0...8).map {
            try Coordinate(latitude: 89, longitude: Geodesic.normalizedLongitude(Double($0) * 45))
        }
        let polar = try #require(AreaShape([[cap]]))
        #expect(polar.contains(try Coordinate(latitude: 90, longitude: 0)))
        #expect(polar.contains(try Coordinate(latitude: 89.5, longitude: -123)))
        #expect(!polar.contains(try Coordinate(latitude: 88.5, longitude: 10)))
        #expect(polar.reach == .infinity)
    }

    @Test("a geodesic edge bulges towards the pole and the box includes the bulge")
    func edgeBulge() throws {
        let edge = GeodesicEdge(
            from: try Coordinate(latitude: 60, longitude: -40), to: try Coordinate(latitude: 60, longitude: 40))
        #expect(edge.maxLatitude > 65)
        let top = try Geodesic.wgs84.direct(from: edge.start, bearing: edge.azimuth, distance: edge.length / 2)
            .destination
        #expect(abs(top.latitude - edge.maxLatitude) < 1e-6)
    }
}
