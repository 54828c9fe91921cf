import Foundation
import GPSDProtocol
import MeridianCore
import MeridianTesting
import Testing

@Suite("GPSDStreamDecoder")
struct GPSDStreamDecoderTests {
    private func decode(_ lines: [String], device: String? = nil) throws -> (fixes: [Fix], decoder: GPSDStreamDecoder) {
        var decoder = GPSDStreamDecoder(providerID: "gpsd", device: device)
        var fixes: [Fix] = []
        for line in lines { fixes += try decoder.feed(line: Array(line.utf8)) }
        fixes += decoder.finish()
        return (fixes, decoder)
    }

    @Test("merges the cumulative TPV reports of one epoch into one fix, emitted when the time changes")
    func mergesByTime() throws {
        var decoder = GPSDStreamDecoder(providerID: "gpsd")
        let first = try decoder.feed(
            line: Array(
                #"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.600Z","lat":41.5,"lon":-93.7,"altHAE":246.7}"#
                    .utf8))
        let second = try decoder.feed(
            line: Array(
                #"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.600Z","lat":41.6,"lon":-93.8,"speed":1.5,"track":124.9,"eph":4.2,"epv":6.5,"altMSL":278.1}"#
                    .utf8))
        #expect(first.isEmpty && second.isEmpty)
        #expect(decoder.hasPendingEpoch)
        let third = try decoder.feed(
            line: Array(#"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.700Z","lat":41.7,"lon":-93.9}"#.utf8))
        let fix = try #require(third.first)
        #expect(third.count == 1)
        #expect(fix.time == ISO8601.date(from: "2020-03-18T13:28:19.600Z"))
        #expect(fix.coordinate == (try Coordinate(latitude: 41.6, longitude: -93.8)))
        #expect(fix.altitudeHAE == 246.7 && fix.altitudeMSL == 278.1)
        #expect(fix.speed == 1.5 && fix.course == 124.9)
        #expect(fix.horizontalAccuracy == 4.2 && fix.verticalAccuracy == 6.5)
        #expect(fix.mode == .threeD && fix.quality == .gps && fix.providerID == "gpsd")
        #expect(decoder.finish().count == 1)
        #expect(decoder.counters["fixes"] == 2 && decoder.counters["tpv"] == 3)
    }

    @Test("a TPV without time is completed by the next timed TPV; one left alone is counted, not emitted")
    func untimedTPV() throws {
        let (fixes, decoder) = try decode([
            #"{"class":"TPV","mode":3,"lat":41.5,"lon":-93.7,"altHAE":246.7}"#,
            #"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.600Z","lat":41.5,"lon":-93.7}"#,
            #"{"class":"TPV","mode":3,"lat":41.6,"lon":-93.8}"#
        ])
        #expect(fixes.count == 1)
        #expect(fixes.first?.altitudeHAE == 246.7)
        #expect(decoder.counters["tpv_without_time"] == 1)
    }

    @Test("alt is the fallback altitude (MSL); altHAE/altMSL win when present")
    func altitudeFallback() throws {
        let (fixes, _) = try decode([
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2,"alt":99.5}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:02Z","lat":1,"lon":2,"alt":99.5,"altHAE":120.0}"#,
            #"{"class":"TPV","mode":2,"time":"2020-01-01T00:00:03Z","lat":1,"lon":2,"alt":99.5,"altHAE":120.0}"#
        ])
        #expect(fixes.map(\.altitudeMSL) == [99.5, nil, nil])
        #expect(fixes.map(\.altitudeHAE) == [nil, 120.0, nil])
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .twoD])
    }

    @Test("mode 0 and 1 are reported as no fix without a position")
    func noFix() throws {
        let (fixes, decoder) = try decode([
            #"{"class":"TPV","mode":1,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":0,"time":"2020-01-01T00:00:02Z"}"#
        ])
        #expect(fixes.map(\.mode) == [.noFix, .noFix])
        #expect(fixes.allSatisfy { $0.coordinate == nil && !$0.hasPosition })
        #expect(decoder.counters["no_fix"] == 2)
    }

    @Test("status maps to quality; absent status is an ordinary GPS fix")
    func status() throws {
        let lines = [nil, 2, 3, 4, 5, 8].enumerated().map { index, status in
            let statusKey = status.map { #","status":\#($0)"# } ?? ""
            return #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:0\#(index)Z","lat":1,"lon":2\#(statusKey)}"#
        }
        let (fixes, _) = try decode(lines)
        #expect(fixes.map(\.quality) == [.gps, .dgps, .rtkFixed, .rtkFloat, .deadReckoning, .simulated])
    }

    @Test("satellites used come from SKY uSat, or from counting used:true")
    func satellitesFromSky() throws {
        let (fixes, _) = try decode([
            #"{"class":"SKY","uSat":7,"satellites":[{"PRN":1,"used":true}]}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2}"#,
            #"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:02Z","lat":1,"lon":2}"#
        ])
        #expect(fixes.map(\.satellitesUsed) == [7, 2])
    }

    @Test("uSat 0 without any satellite listed means unknown, not zero")
    func emptySky() throws {
        let (fixes, _) = try decode([
            #"{"class":"SKY","uSat":0,"nSat":0}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2}"#,
            #"{"class":"SKY","uSat":0,"satellites":[{"PRN":1,"used":false}]}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:02Z","lat":1,"lon":2}"#
        ])
        #expect(fixes.map(\.satellitesUsed) == [nil, 0])
    }

    @Test("accuracy from eph, else epx/epy, else GST")
    func accuracyFallbacks() throws {
        let (fixes, _) = try decode([
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2,"epx":3,"epy":4,"epv":9}"#,
            #"{"class":"GST","lat":6,"lon":8,"alt":2}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:02Z","lat":1,"lon":2}"#
        ])
        #expect(fixes.map(\.horizontalAccuracy) == [5, 10])
        #expect(fixes.map(\.verticalAccuracy) == [9, 2])
    }

    @Test("unknown classes and keys are ignored; VERSION, DEVICES, DEVICE, WATCH and ERROR are understood")
    func protocolClasses() throws {
        let (fixes, decoder) = try decode([
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2024-01-01T00:00:00.000Z"}]}"#,
            #"{"class":"WATCH","enable":true,"json":true}"#,
            #"{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2024-01-01T00:00:00.000Z"}"#,
            #"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":0}"#,
            #"{"class":"ATT","heading":12.5}"#,
            #"{"class":"TOFF","real_sec":1}"#,
            #"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"#,
            #"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2,"future_key":[1,2,{"x":null}]}"#
        ])
        #expect(fixes.count == 1, "\(decoder.counters)")
        #expect(decoder.version?.protoMajor == 3 && decoder.version?.release == "3.22")
        #expect(decoder.activeDevices == ["/dev/ttyACM0"])
        #expect(decoder.lastGPSDError == "Unrecognized request 'FOO'")
        #expect(decoder.counters["unknown_class"] == 2 && decoder.counters["gpsd_errors"] == 1)
    }

    @Test("protocol majors 3 and 16 are accepted; others throw a typed error that names the version")
    func protocolVersions() throws {
        _ = try decode([#"{"class":"VERSION","release":"x","proto_major":16,"proto_minor":0}"#])
        var decoder = GPSDStreamDecoder(providerID: "gpsd")
        #expect(throws: GPSDDecodeError.unsupportedProtocol(major: 2, minor: 1, release: "2.95")) {
            _ = try decoder.feed(
                line: Array(#"{"class":"VERSION","release":"2.95","proto_major":2,"proto_minor":1}"#.utf8))
        }
        #expect(decoder.counters["unsupported_protocol"] == 1)
    }

    @Test("malformed JSON throws an error naming the line and the problem, and is counted")
    func malformed() throws {
        var decoder = GPSDStreamDecoder(providerID: "gpsd")
        for bad in [
            #"{"class":"TPV","mode":3,"#, "garbage\u{01}\u{ff}", #"{"mode":3}"#, #"{"class":"TPV","lat":"north"}"#,
            "[1,2]"
        ] {
            do {
                _ = try decoder.feed(line: Array(bad.utf8))
                Issue.record("'\(bad)' was accepted")
            } catch {
                guard case .malformedJSON(let excerpt, let reason) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(!excerpt.isEmpty && !reason.isEmpty)
            }
        }
        #expect(decoder.counters["malformed"] == 5)
        #expect(try decoder.feed(line: Array("   \r".utf8)).isEmpty)
        do {
            _ = try decoder.feed(line: Array(#"{"class":"TPV","lat":"north"}"#.utf8))
        } catch {
            #expect(error.description.contains("lat"))
        }
    }

    @Test("device filter: reports of other devices are ignored and counted")
    func deviceFilter() throws {
        let (fixes, decoder) = try decode(
            [
                #"{"class":"TPV","device":"/dev/a","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2}"#,
                #"{"class":"TPV","device":"/dev/b","mode":3,"time":"2020-01-01T00:00:02Z","lat":3,"lon":4}"#,
                #"{"class":"SKY","device":"/dev/b","uSat":12}"#
            ], device: "/dev/a")
        #expect(fixes.count == 1 && fixes.first?.coordinate?.latitude == 1 && fixes.first?.satellitesUsed == nil)
        #expect(decoder.counters["other_device"] == 2)
    }

    @Test("POLL answers feed their TPV/SKY; a repeat of an emitted epoch is not emitted twice")
    func poll() throws {
        var decoder = GPSDStreamDecoder(providerID: "gpsd")
        let poll =
            #"{"class":"POLL","time":"2020-01-01T00:00:02Z","active":1,"tpv":[{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":1,"lon":2}],"sky":[{"class":"SKY","uSat":5}]}"#
        #expect(try decoder.feed(line: Array(poll.utf8)).isEmpty)
        let first = decoder.finish()
        #expect(first.count == 1 && first.first?.satellitesUsed == 5)
        #expect(try decoder.feed(line: Array(poll.utf8)).isEmpty)
        #expect(decoder.finish().isEmpty)
        #expect(decoder.counters["repeated_tpv"] == 1)
    }

    @Test("invalid positions in a 2D/3D report become a no-fix, never a bad coordinate")
    func invalidPosition() throws {
        let (fixes, decoder) = try decode([#"{"class":"TPV","mode":3,"time":"2020-01-01T00:00:01Z","lat":123,"lon":2}"#]
        )
        #expect(fixes.first?.mode == .noFix && fixes.first?.coordinate == nil)
        #expect(decoder.counters["invalid_position"] == 1)
    }

    @Test("gpsd 3.22's own output for nmea-rtk.log decodes into one fix per epoch, every one conforming")
    func realGPSDOutput() throws {
        let text = try String(contentsOf: TestData.url("nmea/gpsd-3.22-out/nmea-rtk.log.out"), encoding: .utf8)
        let jsonLines = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{") }.map(String.init)
        let (fixes, decoder) = try decode(jsonLines)
        let expectedTimes = Set(
            jsonLines.compactMap { line -> String? in
                guard let range = line.range(of: #""time":""#) else { return nil }
                return String(line[range.upperBound...].prefix(24))
            })
        #expect(fixes.count == expectedTimes.count && fixes.count == 122)
        #expect(Set(fixes.map { ISO8601.string(from: $0.time) }) == expectedTimes)
        #expect(fixes.allSatisfy { $0.hasPosition })
        #expect(Set(fixes.compactMap(\.quality)).isSuperset(of: [.dgps, .rtkFixed]))
        for (index, fix) in fixes.enumerated() {
            #expect(ProviderConformance.check(fix, index: index, id: "gpsd").isEmpty)
        }
        #expect(decoder.counters["malformed"] == 0)
        #expect(decoder.counters["fixes"] == 122)
    }
}
