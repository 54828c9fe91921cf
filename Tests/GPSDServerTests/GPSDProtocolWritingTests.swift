import Foundation
import GPSDProtocol
import MeridianCore
import NMEA
import Testing

@testable import GPSDServer

@Suite struct GPSDProtocolWritingTests {
    private let fix = Fix(
        time: Date(timeIntervalSince1970: 1_700_000_000.25),
        coordinate: try? Coordinate(latitude: 52.520008, longitude: -13.404954),
        altitudeHAE: 80.5, altitudeMSL: 36.25, speed: 3.5, course: 271.25, horizontalAccuracy: 4.2,
        verticalAccuracy: 6, mode: .threeD, quality: .dgps, satellitesUsed: 9, providerID: "gps")

    @Test func tpvIsWrittenWithGpsdKeysAndDecodesBackToTheSameFix() throws {
        let line = GPSDReportWriter.tpv(fix)
        #expect(line.hasSuffix("}\r\n"))
        #expect(
            line.hasPrefix(
                #"{"class":"TPV","device":"gps","mode":3,"status":2,"time":"2023-11-14T22:13:20.250Z","lat":52.520008000,"lon":-13.404954000,"altHAE":80.500,"altMSL":36.250"#
            ))
        var decoder = GPSDStreamDecoder(providerID: "gps")
        _ = try decoder.feed(line: Array((GPSDReportWriter.sky(fix) ?? "").utf8.dropLast(2)))
        _ = try decoder.feed(line: Array(line.utf8.dropLast(2)))
        let decoded = try #require(decoder.finish().first)
        #expect(decoded.coordinate == fix.coordinate)
        #expect(decoded.altitudeHAE == 80.5 && decoded.altitudeMSL == 36.25)
        #expect(decoded.speed == 3.5 && decoded.course == 271.25 && decoded.quality == .dgps)
        #expect(abs((decoded.horizontalAccuracy ?? 0) - 4.2) < 1e-9)
        #expect(decoded.satellitesUsed == 9)
        // One horizontal error says nothing of its axes: gpsd leaves epx/epy out when it cannot compute them.
        #expect(!line.contains(#""epx""#) && !line.contains(#""epy""#) && line.contains(#""eph":4.200"#))
    }

    @Test func aFixWithoutPositionIsModeOneWithTimeOnly() {
        let noFix = Fix(time: Date(timeIntervalSince1970: 0), coordinate: nil, mode: .noFix, providerID: "gps")
        #expect(
            GPSDReportWriter.tpv(noFix) == #"{"class":"TPV","device":"gps","mode":1,"time":"1970-01-01T00:00:00.000Z"}"#
                + "\r\n")
    }

    @Test func synthesisedSentencesCarryValidChecksumsAndDecodeToTheFix() throws {
        let text = NMEASentenceWriter.watchSentences(fix)
        let lines = text.split(separator: "\r\n")
        #expect(lines.map { $0.prefix(6) } == ["$GPGGA", "$GPRMC", "$GPGSA", "$GPVTG"])
        for line in lines {
            let body = line.dropFirst().prefix { $0 != "*" }
            let checksum = body.utf8.reduce(UInt8(0), ^)
            #expect(line.suffix(2) == String(format: "%02X", checksum), "\(line)")
        }
        var decoder = NMEAStreamDecoder(providerID: "nmea")
        let fixes = decoder.feed(Array(text.utf8)) + decoder.finish()
        let decoded = try #require(fixes.first { $0.hasPosition })
        let coordinate = try #require(decoded.coordinate)
        #expect(abs(coordinate.latitude - 52.520008) < 1e-7 && abs(coordinate.longitude + 13.404954) < 1e-7)
        #expect(abs((decoded.speed ?? 0) - 3.5) < 0.001)
        #expect(decoded.altitudeMSL == 36.25)
        #expect(decoder.counters.badChecksum == 0)
    }

    @Test func requestsAreSplitAsGpsdSplitsThem() {
        let requests = GPSDRequest.parse(#"?WATCH={"enable":true,"json":true};?POLL; ?VERSION;"# + "\n")
        #expect(requests == [.watch(json: #"{"enable":true,"json":true}"#), .poll, .version])
        #expect(GPSDRequest.parse("?FOO;\n") == [.unrecognized(message: "Unrecognized request '?FOO'")])
        #expect(GPSDRequest.parse("hello\n") == [])
        #expect(GPSDRequest.parse("?DEVICES;?DEVICE;") == [.devices, .device(json: nil)])
    }

    @Test func watchKeepsWhatIsLeftOutAndRefusesUnknownKeys() throws {
        var policy = GPSDWatchPolicy()
        try policy.apply(json: #"{"enable":true,"json":true,"split24":true,"pps":true}"#)
        try policy.apply(json: #"{"raw":1}"#)
        #expect(policy.enable && policy.json && policy.raw == 1 && policy.split24 && !policy.pps)
        #expect(throws: GPSDRequestError.invalid("WATCH", reason: "unknown attribute name")) {
            try policy.apply(json: #"{"colour":true}"#)
        }
        #expect(
            GPSDReportWriter.watch(policy).hasPrefix(
                #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":1,"#))
    }
}
