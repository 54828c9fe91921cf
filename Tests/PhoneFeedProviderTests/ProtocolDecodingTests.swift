import Foundation
import Testing

@testable import PhoneFeedProvider

/// The apps' documented payloads, decoded into SI units.
@Suite struct ProtocolDecodingTests {
    private func single(_ decoded: [DecodedPoint]) throws -> PhonePoint {
        guard decoded.count == 1, case .point(let point) = decoded[0] else {
            Issue.record("expected one point, got \(decoded)")
            throw CancellationError()
        }
        return point
    }

    // owntracks.org/booklet/tech/json, "_type=location": acc 75, alt 13, cog 270, tst 1376715317, vac 10, vel 54
    // (km/h), conn "w", with the booklet's placeholders (x.xxxxxx, nnn) filled in.
    @Test func ownTracksLocation() throws {
        let body = #"""
            {"_type":"location","acc":75,"alt":13,"batt":64,"cog":270,"lat":52.520008,"lon":13.404954,"rad":0,"t":"u","tid":"YY","tst":1376715317,"vac":10,"vel":54,"p":101,"conn":"w","created_at":1376715320,"m":1}
            """#
        let point = try single(OwnTracksMessage.decode(Data(body.utf8)).points)
        #expect(OwnTracksMessage.decode(Data(body.utf8)).mode == 1)  // significant
        #expect(point.time == Date(timeIntervalSince1970: 1_376_715_317))
        #expect(point.latitude == 52.520008 && point.longitude == 13.404954)
        #expect(point.speed == 15)  // 54 km/h
        #expect(point.course == 270 && point.accuracy == 75 && point.altitude == 13 && point.verticalAccuracy == 10)
        #expect(point.battery == 0.64)
    }

    @Test func ownTracksOtherTypesAndEmptyBodiesAreIgnored() {
        // owntracks.org/booklet/tech/json: "_type":"lwt" and "transition" are other message types.
        #expect(OwnTracksMessage.decode(Data(#"{"_type":"lwt","tst":1376715317}"#.utf8)).points.isEmpty)
        #expect(OwnTracksMessage.decode(Data()).points.isEmpty)
        #expect(OwnTracksMessage.decode(Data("{not json".utf8)).points == [.rejected("the body is not JSON")])
    }

    // traccar.org/osmand: "id=123456&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}" (speed in knots).
    @Test func osmAndQueryForms() throws {
        let seconds = OsmAndParameters.decode(
            OsmAndParameters.parameters(
                "id=123456&lat=52.5&lon=13.4&timestamp=1609459200&hdop=1.2&altitude=34&speed=10&bearing=90&accuracy=5&batt=80"
            ))
        guard case .point(let point) = seconds else {
            Issue.record("\(seconds)")
            return
        }
        #expect(point.time == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(abs((point.speed ?? 0) - 5.1444) < 0.0001)  // 10 knots
        #expect(point.course == 90 && point.altitude == 34 && point.accuracy == 5 && point.battery == 0.8)

        let millis = OsmAndParameters.decode(
            OsmAndParameters.parameters("deviceid=1&location=52.5,13.4&timestamp=1609459200123&heading=45"))
        guard case .point(let other) = millis else {
            Issue.record("\(millis)")
            return
        }
        #expect(other.time == Date(timeIntervalSince1970: 1609459200.123))
        #expect(other.latitude == 52.5 && other.longitude == 13.4 && other.course == 45)

        let iso = OsmAndParameters.decode(
            OsmAndParameters.parameters("id=1&lat=1&lon=2&timestamp=2021-01-01T00%3A00%3A00Z"))
        guard case .point(let third) = iso else {
            Issue.record("\(iso)")
            return
        }
        #expect(third.time == Date(timeIntervalSince1970: 1_609_459_200))
    }

    // GPSLogger's custom URL placeholders: %LAT %LON %TIME (ISO 8601 UTC) %ACC %SPD (m/s) %ALT %DIR %BATT (%).
    @Test func gpsLoggerURL() throws {
        let decoded = OsmAndParameters.decode(
            OsmAndParameters.parameters(
                "key=k&lat=48.85833&lon=2.29513&timestamp=2024-05-01T10:15:30.500Z&accuracy=4.0&speed_mps=3.2&altitude=35.0&bearing=181.5&batt=57.0"
            ))
        guard case .point(let point) = decoded else {
            Issue.record("\(decoded)")
            return
        }
        #expect(point.speed == 3.2 && point.course == 181.5 && point.battery == 0.57)
        #expect(point.time == Date(timeIntervalSince1970: 1714558530.5))
    }

    // traccar.org/osmand, the JSON format of Traccar Client 9 (speed in m/s, battery level 0...1).
    @Test func traccarClientJSON() throws {
        let body = #"""
            { "location": { "timestamp": "2000-01-01T00:00:00.000Z", "coords": { "latitude": 0.0, "longitude": 0.0, "accuracy": 0, "speed": 0, "heading": 0, "altitude": 0 }, "is_moving": false, "odometer": 0, "event": "motionchange", "battery": { "level": 1, "is_charging": false }, "activity": { "type": "still" }, "extras": {} }, "device_id": "48241179" }
            """#
        let decoded = OsmAndParameters.decode(json: Data(body.utf8))
        guard case .point(let point) = decoded else {
            Issue.record("\(decoded)")
            return
        }
        #expect(point.time == Date(timeIntervalSince1970: 946_684_800))
        #expect(point.speed == 0 && point.battery == 1 && point.accuracy == 0)
    }

    // github.com/aaronpk/Overland-iOS README, the example request body.
    @Test func overlandBatch() throws {
        let body = #"""
            {"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-122.030581,37.3318]},"properties":{"timestamp":"2015-10-01T08:00:00-0700","altitude":0,"speed":4,"horizontal_accuracy":30,"vertical_accuracy":-1,"motion":["driving","stationary"],"pauses":false,"activity":"other_navigation","desired_accuracy":100,"deferred":1000,"significant_change":"disabled","locations_in_payload":1,"battery_state":"charging","battery_level":0.89,"device_id":"","wifi":""}}]}
            """#
        let point = try single(OverlandBatch.decode(Data(body.utf8)))
        #expect(point.time == Date(timeIntervalSince1970: 1_443_711_600))
        #expect(point.latitude == 37.3318 && point.longitude == -122.030581)
        #expect(point.speed == 4 && point.accuracy == 30 && point.verticalAccuracy == nil && point.battery == 0.89)
    }

    @Test("a key is stored as its SHA-256 (FIPS 180-4 known answers), so keys stored before keep working")
    func keyHashKnownAnswers() {
        func hex(_ text: String) -> String { DeviceKey.hash(text).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
