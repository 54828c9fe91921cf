import Testing
@testable import MeridianCore

@Suite("Douglas–Peucker")
struct SimplificationTests {
    @Test("straight line collapses to its ends; a corner survives")
    func corner() throws {
        let start = try Coordinate(latitude: 45, longitude: 7)
        var points: [Coordinate] = []
        for step in 0...50 {
            points.append(try Geodesic.wgs84.direct(from: start, bearing: 90, distance: Double(step) * 10).destination)
        }
        #expect(Geodesic.wgs84.simplifiedIndices(of: points, tolerance: 0.5) == [0, 50])
        let corner = points[50]
        for step in 1...50 {
            points.append(try Geodesic.wgs84.direct(from: corner, bearing: 0, distance: Double(step) * 10).destination)
        }
        #expect(Geodesic.wgs84.simplifiedIndices(of: points, tolerance: 1) == [0, 50, 100])
    }

    @Test("no dropped point is farther than the tolerance from the result")
    func toleranceHolds() throws {
        var generator = SeededRandom(seed: 3)
        var points = [try Coordinate(latitude: 51.5, longitude: -0.1)]
        for _ in 0..<500 {
            let bearing = Double.random(in: 0..<360, using: &generator)
            points.append(try Geodesic.wgs84.direct(from: points[points.count - 1], bearing: bearing, distance: 8).destination)
        }
        let tolerance = 5.0
        let kept = Geodesic.wgs84.simplifiedIndices(of: points, tolerance: tolerance)
        #expect(kept.first == 0 && kept.last == points.count - 1 && kept.count < points.count)
        for (a, b) in zip(kept, kept.dropFirst()) {
            for index in a...b {
                #expect(Geodesic.wgs84.offsetFromSegment(points[index], points[a], points[b]) <= tolerance + 1e-9)
            }
        }
    }

    @Test("tiny inputs are returned whole")
    func tiny() throws {
        let one = [try Coordinate(latitude: 0, longitude: 0)]
        #expect(Geodesic.wgs84.simplifiedIndices(of: one, tolerance: 10) == [0])
        #expect(Geodesic.wgs84.simplifiedIndices(of: [], tolerance: 10) == [])
    }
}
