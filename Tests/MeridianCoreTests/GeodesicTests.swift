import Foundation
import Testing

@testable import MeridianCore

@Suite("Geodesic (WGS84) against GeographicLib")
struct GeodesicTests {
    /// Angular difference in degrees, allowing for wrap-around at 0/360 and ±180.
    private func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs((a - b).truncatingRemainder(dividingBy: 360))
        return min(d, 360 - d)
    }

    @Test("inverse matches GeographicLib within 1 µm")
    func inverseMatchesReference() throws {
        for reference in inverseReferences {
            let from = try Coordinate(latitude: reference.lat1, longitude: reference.lon1)
            let to = try Coordinate(latitude: reference.lat2, longitude: reference.lon2)
            let result = Geodesic.wgs84.inverse(from: from, to: to)
            #expect(abs(result.distance - reference.distance) < 1e-6, "distance \(from) → \(to)")
            // Azimuths are undefined between coincident points.
            guard reference.distance > 1e-3 else { continue }
            #expect(
                angleDifference(result.initialBearing, reference.azimuth1) < 1e-9, "initial bearing \(from) → \(to)")
            #expect(angleDifference(result.finalBearing, reference.azimuth2) < 1e-9, "final bearing \(from) → \(to)")
        }
    }

    @Test("direct matches GeographicLib within 1 µm")
    func directMatchesReference() throws {
        for reference in directReferences {
            let start = try Coordinate(latitude: reference.lat1, longitude: reference.lon1)
            let result = try Geodesic.wgs84.direct(
                from: start, bearing: reference.azimuth1, distance: reference.distance)
            let expected = try Coordinate(latitude: reference.lat2, longitude: reference.lon2)
            #expect(
                Geodesic.wgs84.distance(result.destination, expected) < 1e-6,
                "\(start) az \(reference.azimuth1) d \(reference.distance)")
            #expect(angleDifference(result.finalBearing, reference.azimuth2) < 1e-9)
        }
    }

    @Test("length of a polyline is the sum of its legs")
    func polylineLength() throws {
        let points = try [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { try Coordinate(latitude: $0.0, longitude: $0.1) }
        let expected = Geodesic.wgs84.distance(points[0], points[1]) + Geodesic.wgs84.distance(points[1], points[2])
        #expect(abs(Geodesic.wgs84.length(of: points) - expected) < 1e-9)
        #expect(Geodesic.wgs84.length(of: [points[0]]) == 0)
        #expect(Geodesic.wgs84.length(of: [Coordinate]()) == 0)
        // One degree of longitude on the equator: a · π / 180.
        #expect(abs(Geodesic.wgs84.distance(points[0], points[1]) - 111_319.490_793_273_57) < 1e-6)
    }

    @Test("direct rejects non-finite input")
    func directRejectsNaN() throws {
        let start = try Coordinate(latitude: 0, longitude: 0)
        #expect(throws: CoordinateError.self) { try Geodesic.wgs84.direct(from: start, bearing: .nan, distance: 10) }
        #expect(throws: CoordinateError.self) {
            try Geodesic.wgs84.direct(from: start, bearing: 0, distance: .infinity)
        }
    }
}
