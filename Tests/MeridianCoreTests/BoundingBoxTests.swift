import Testing

@testable import MeridianCore

@Suite("Radius bounding box")
struct BoundingBoxTests {
    /// Walks the circle of `radius` around `center` and checks every point (and a point
    /// just inside) is in the box.
    private func assertContainsCircle(_ center: Coordinate, _ radius: Double) throws {
        let box = Geodesic.wgs84.boundingBox(center: center, radius: radius)
        for step in 0..<720 {
            let bearing = Double(step) / 2
            for distance in [radius, radius * 0.999, radius * 0.5] {
                let point = try Geodesic.wgs84.direct(from: center, bearing: bearing, distance: distance).destination
                #expect(box.contains(point), "\(point) at \(bearing)° \(distance) m from \(center) is outside \(box)")
            }
        }
    }

    @Test("contains the whole circle at many latitudes and radii")
    func containsCircle() throws {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<150 {
            let latitude = Double.random(in: -89.9...89.9, using: &generator)
            let longitude = Double.random(in: -180...180, using: &generator)
            let radius = [10.0, 500, 5000, 50_000, 900_000][Int.random(in: 0..<5, using: &generator)]
            try assertContainsCircle(Coordinate(latitude: latitude, longitude: longitude), radius)
        }
    }

    @Test("splits into two longitude ranges across the antimeridian")
    func antimeridian() throws {
        let box = Geodesic.wgs84.boundingBox(center: try Coordinate(latitude: 10, longitude: 179.99), radius: 5000)
        #expect(box.longitudeRanges.count == 2)
        #expect(box.longitudeRanges.contains { $0.contains(-179.98) })
        #expect(box.longitudeRanges.contains { $0.contains(179.95) })
        #expect(!box.contains(try Coordinate(latitude: 10, longitude: 0)))
        try assertContainsCircle(Coordinate(latitude: 10, longitude: 179.99), 5000)
        try assertContainsCircle(Coordinate(latitude: -45, longitude: -179.999), 20_000)
    }

    @Test("a circle around a pole spans every longitude")
    func poles() throws {
        let north = Geodesic.wgs84.boundingBox(center: try Coordinate(latitude: 89.99, longitude: 45), radius: 5000)
        #expect(north.maxLatitude == 90 && north.longitudeRanges == [-180...180])
        #expect(north.minLatitude < 89.99 && north.minLatitude > 89.9)
        let south = Geodesic.wgs84.boundingBox(center: try Coordinate(latitude: -90, longitude: 0), radius: 1000)
        #expect(south.minLatitude == -90 && south.longitudeRanges == [-180...180])
        try assertContainsCircle(Coordinate(latitude: 89.99, longitude: 45), 5000)
        try assertContainsCircle(Coordinate(latitude: 89.9, longitude: -120), 10_000)
    }

    @Test("the box is tight: latitude limits are the exact north and south extremes")
    func tight() throws {
        let center = try Coordinate(latitude: 48, longitude: 2)
        let box = Geodesic.wgs84.boundingBox(center: center, radius: 5000)
        let north = try Geodesic.wgs84.direct(from: center, bearing: 0, distance: 5000).destination.latitude
        #expect(abs(box.maxLatitude - north) < 1e-6)
        let range = try #require(box.longitudeRanges.first)
        let east = try Geodesic.wgs84.direct(from: center, bearing: 90, distance: 5000).destination.longitude
        // At most about 1 % wider than the true half-width.
        #expect(range.upperBound - 2 < (east - 2) * 1.01)
    }

    @Test("huge and invalid radii give the whole world")
    func huge() throws {
        let box = Geodesic.wgs84.boundingBox(center: try Coordinate(latitude: 0, longitude: 0), radius: 30_000_000)
        #expect(box == BoundingBox(minLatitude: -90, maxLatitude: 90, longitudeRanges: [-180...180]))
        let zero = Geodesic.wgs84.boundingBox(center: try Coordinate(latitude: 0, longitude: 0), radius: -5)
        #expect(zero.contains(try Coordinate(latitude: 0, longitude: 0)))
    }
}
