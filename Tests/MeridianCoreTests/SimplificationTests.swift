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
            points.append(
                try Geodesic.wgs84.direct(from: points[points.count - 1], bearing: bearing, distance: 8).destination)
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

    @Test("for a budget of points: what the tolerance-based pass keeps at the smallest tolerance that fits")
    func budget() throws {
        var generator = SeededRandom(seed: 11)
        var segments: [[Coordinate]] = []
        for segment in 0..<3 {
            var points = [try Coordinate(latitude: 48.1 + Double(segment) * 0.01, longitude: 11.5)]
            for _ in 0..<(400 + segment * 300) {
                let bearing = Double.random(in: 0..<360, using: &generator)
                points.append(
                    try Geodesic.wgs84.direct(from: points[points.count - 1], bearing: bearing, distance: 6).destination
                )
            }
            segments.append(points)
        }
        for maxPoints in [6, 50, 333, 1000] {
            let (tolerance, kept) = Geodesic.wgs84.simplifiedIndices(ofSegments: segments, maxPoints: maxPoints)
            #expect(kept.reduce(0) { $0 + $1.count } <= max(maxPoints, 6))
            #expect(kept == segments.map { Geodesic.wgs84.simplifiedIndices(of: $0, tolerance: tolerance) })
            // The smallest such tolerance: a little less keeps too many.
            let below = segments.reduce(0) {
                $0 + Geodesic.wgs84.simplifiedIndices(of: $1, tolerance: tolerance * 0.999).count
            }
            #expect(maxPoints < 6 || below > maxPoints)
        }
        let all = Geodesic.wgs84.simplifiedIndices(ofSegments: segments, maxPoints: 10_000)
        #expect(all.tolerance == 0 && all.kept == segments.map { Array($0.indices) })
        #expect(Geodesic.wgs84.simplifiedIndices(ofSegments: [[], [segments[0][0]]], maxPoints: 5).kept == [[], [0]])
    }
}
