import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// A track point's size matters (an import holds up to a million), and its JSON (a live run's saved state) must stay
/// what it was when every measurement was an `Optional<Double>`.
@Suite("track points: compact, and their JSON unchanged")
struct TrackPointLayoutTests {
    @Test("a point takes at most 120 bytes (200 with every measurement an Optional<Double>)")
    func compact() {
        #expect(MemoryLayout<TrackPoint>.stride <= 120)
    }

    @Test("missing measurements leave their keys out, and a saved point without them reads back with nil")
    func json() throws {
        let point = TrackPoint(
            sequence: 3, time: Date(timeIntervalSince1970: 1_714_546_800),
            coordinate: try Coordinate(latitude: 48.1, longitude: 11.5), altitude: 512.5, segment: 1,
            rejection: .stationaryDrift, sensors: SensorReading(heartRate: 150))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(point), as: UTF8.self)
        #expect(
            text
                == #"{"altitude":512.5,"coordinate":{"latitude":48.1,"longitude":11.5},"rejection":"stationary_drift","segment":1,"sensors":{"heartRate":150},"sequence":3,"time":736239600}"#
        )
        let saved = #"{"sequence":0,"time":736239600,"segment":0,"speed":2.5,"sensors":{}}"#
        let decoded = try JSONDecoder().decode(TrackPoint.self, from: Data(saved.utf8))
        #expect(decoded.speed == 2.5 && decoded.altitude == nil && decoded.distance == nil)
        #expect(decoded.sensors == .none && decoded.coordinate == nil)
        #expect(try JSONDecoder().decode(TrackPoint.self, from: Data(text.utf8)) == point)
    }
}
