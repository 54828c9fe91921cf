import Foundation
import MeridianTesting
import Testing

@testable import MeridianCore

@Suite("Coordinate and time")
struct CoordinateTests {
    @Test(
        "out-of-range, NaN and infinite values are rejected and named",
        arguments: [
            (91.0, 0.0, "latitude 91.0"), (-90.5, 0.0, "latitude -90.5"), (0.0, 180.01, "longitude 180.01"),
            (.nan, 0.0, "latitude nan"), (0.0, .infinity, "longitude inf")
        ] as [(Double, Double, String)])
    func rejected(latitude: Double, longitude: Double, fragment: String) {
        #expect {
            _ = try Coordinate(latitude: latitude, longitude: longitude)
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    @Test("a swapped pair gets a hint")
    func swappedHint() {
        #expect(throws: CoordinateError.latitudeOutOfRange(151.2)) { try Coordinate(parsing: "151.2,-33.8") }
        #expect(CoordinateError.latitudeOutOfRange(151.2).description.contains("swapped"))
    }

    @Test("parsing LAT,LON text", arguments: ["48.8584,2.2945", " 48.8584 , 2.2945 "])
    func parsing(text: String) throws {
        let coordinate = try Coordinate(parsing: text)
        #expect(coordinate.latitude == 48.8584 && coordinate.longitude == 2.2945)
    }

    @Test("unparsable text", arguments: ["", "48.8", "a,b", "1,2,3", "48,8;2"])
    func unparsable(text: String) {
        #expect(throws: CoordinateError.self) { try Coordinate(parsing: text) }
    }

    @Test("-0 is normalised to 0")
    func negativeZero() throws {
        let coordinate = try Coordinate(latitude: -0.0, longitude: -0.0)
        #expect(coordinate.latitude.sign == .plus && coordinate.longitude.sign == .plus)
    }

    @Test("ISO 8601 round trip with milliseconds")
    func iso8601() throws {
        let date = Date(timeIntervalSince1970: 1_714_548_612.25)
        #expect(ISO8601.string(from: date) == "2024-05-01T07:30:12.250Z")
        #expect(ISO8601.date(from: "2024-05-01T07:30:12.250Z") == date)
        #expect(ISO8601.date(from: "2024-05-01T09:30:12.25+02:00") == date)
        #expect(ISO8601.date(from: "2024-05-01") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        for bad in ["2024-13-01", "2024-02-30T00:00:00Z", "2024-05-01T25:00:00Z", "yesterday", "2024-05-01T07:30:12"] {
            #expect(ISO8601.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test(
        "signal quality levels from horizontal accuracy",
        arguments: [
            (3.0, SignalQuality.good), (9.99, .good), (10, .fair), (19.9, .fair), (20, .poor), (50, .poor),
            (50.1, .unusable)
        ] as [(Double, SignalQuality)])
    func signalQuality(accuracy: Double, expected: SignalQuality) {
        #expect(SignalQuality(horizontalAccuracy: accuracy) == expected)
    }

    @Test("unknown accuracy has no signal level")
    func unknownSignal() {
        #expect(SignalQuality(horizontalAccuracy: nil) == nil)
        #expect(SignalQuality(horizontalAccuracy: .nan) == nil)
    }
}

@Suite("Fix JSON")
struct FixJSONTests {
    @Test("a FixRecord round-trips through MeridianJSON with gpsd-style keys")
    func roundTrip() throws {
        var fix = Fix.test(47.5, -122.25, speed: 3.25, accuracy: 4)
        fix.altitudeHAE = 12.5
        fix.altitudeMSL = 30
        fix.course = 359.5
        fix.verticalAccuracy = 6
        let record = FixRecord(fix)
        let text = try MeridianJSON.string(record)
        for key in ["\"alt_hae\":12.5", "\"alt_msl\":30", "\"satellites_used\":8", "\"track\":359.5", "\"mode\":3"] {
            #expect(text.contains(key), "\(text)")
        }
        let decoded = try MeridianJSON.makeDecoder().decode(FixRecord.self, from: Data(text.utf8))
        #expect(decoded == record)
    }
}
