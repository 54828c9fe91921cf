import Foundation
import Testing

@testable import MeridianCore

/// JSON numbers are rounded to what their keys say they mean, the same way by the encoder and the hand-written writers.
@Suite("JSON numbers rounded to what they mean")
struct JSONRoundingTests {
    struct Sample: Encodable {
        struct Geometry: Encodable {
            var type = "LineString"
            var coordinates: [[Double]]
        }

        var lat = 47.361999999999995
        var lon = -0.0000000001
        var elapsedS = 0.7153807560000001
        var distanceM = 10229.57772568156
        var avgPaceSPerKm = 295.12345
        var maxSpeedMps = 4.123456
        var initialBearing = 47.599924610822235
        var avgHeartRateBpm = 142.7333333
        var count = 3
        var ratio = 0.1 + 0.2
        var note = #""lat": 1.23456789"#
        var geometry = Geometry(coordinates: [[8.123456789, 47.987654321], [-122.4194155, 37.7749295]])
        var altHAE = 459.6049999
        var eph = 3.634528855298854

        enum CodingKeys: String, CodingKey {
            case lat, lon, elapsedS, distanceM, avgPaceSPerKm, maxSpeedMps, initialBearing, avgHeartRateBpm, count,
                ratio, note,
                geometry, eph
            case altHAE = "altHae"
        }
    }

    static let expected = """
        {"alt_hae":459.6,"avg_heart_rate_bpm":142.7,"avg_pace_s_per_km":295.123,"count":3,"distance_m":10229.58,\
        "elapsed_s":0.715,"eph":3.63,"geometry":{"coordinates":[[8.1234568,47.9876543],[-122.4194155,37.7749295]],\
        "type":"LineString"},"initial_bearing":47.6,"lat":47.362,"lon":0,"max_speed_mps":4.123,\
        "note":"\\"lat\\": 1.23456789","ratio":0.30000000000000004}
        """

    @Test("coordinates 7 decimals, seconds 3, metres 2; other numbers and strings as they were")
    func encoder() throws {
        #expect(try MeridianJSON.string(Sample()) == Self.expected)
        let pretty = String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(Sample()), as: UTF8.self)
        #expect(
            pretty.contains(#""lat" : 47.362,"#) && pretty.contains("8.1234568,")
                && pretty.contains("0.30000000000000004"), "\(pretty)")
    }

    @Test(
        "the hand-written writer rounds the same keys the same way",
        arguments: [
            47.361999999999995, -0.0, -0.00000004, 0.00000005, 179.99999999, 1e-05, 123456.789, 1e20, -33.67955329
        ])
    func scratchWriter(value: Double) throws {
        struct Pair: Encodable {
            var distanceM: Double
            var lat: Double
        }
        let expected = try MeridianJSON.string(Pair(distanceM: value, lat: value))
        let written = [UInt8](unsafeUninitializedCapacity: 256) { buffer, count in
            var out = JSONScratchWriter(base: buffer.baseAddress!)
            out.object { out in
                out.number(#","distance_m":"#, value)
                out.number(#","lat":"#, value)
            }
            count = out.count
        }
        #expect(String(decoding: written, as: UTF8.self) == expected)
    }
}
