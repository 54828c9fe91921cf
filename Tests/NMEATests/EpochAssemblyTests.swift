import Foundation
import MeridianCore
import NMEA
import Testing

@Suite("NMEA sentences and epoch assembly")
struct EpochAssemblyTests {
    @Test func mergesOneCycleIntoOneFix() throws {
        let text =
            sentence("GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,E")
            + sentence("GPGGA,113258,3238.9148,N,10822.4466,W,2,08,1.1,1577.4,M,-24.6,M,,")
            + sentence("GPGSA,A,3,02,05,11,12,18,20,25,29,,,,,1.4,1.1,0.9")
            + sentence("PGRME,7.6,M,41.7,M,42.4,M")
        let result = decode(text)
        let fix = try #require(result.fixes.first)
        #expect(result.fixes.count == 1)
        #expect(ISO8601.string(from: fix.time) == "2022-10-18T11:32:58.000Z")
        #expect(fix.mode == .threeD)
        #expect(fix.quality == .dgps)
        #expect(fix.altitudeMSL == 1577.4)
        #expect(abs((fix.altitudeHAE ?? 0) - 1552.8) < 1e-9)
        #expect(abs((fix.speed ?? 0) - 5.3 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 247.1)
        #expect(fix.horizontalAccuracy == 7.6)
        #expect(fix.verticalAccuracy == 41.7)
        #expect(fix.satellitesUsed == 8)
        #expect(fix.providerID == "t")
    }

    @Test func newTimestampStartsANewEpoch() {
        let text =
            sentence("GPRMC,000001,A,4807.038,N,01131.000,E,0,0,230394,,")
            + sentence("GPRMC,000002,A,4807.038,N,01131.000,E,0,0,230394,,")
        var decoder = NMEAStreamDecoder(providerID: "t")
        let first = decoder.feed(Array(text.utf8))
        #expect(first.count == 1, "the first epoch completes when the second starts")
        #expect(decoder.finish().count == 1)
        #expect(decoder.counters.fixesEmitted == 2)
    }

    @Test func navigationalStatusVDoesNotInvalidateAFix() throws {
        // NMEA 4.11 (u-blox F9): mode indicator A, navigational status V ("not provided").
        let result = decode(sentence("GNRMC,003956.00,A,4552.65403,S,17030.00668,E,0.025,,120419,,,A,V"))
        let fix = try #require(result.fixes.first)
        #expect(fix.mode == .twoD)
        #expect(fix.coordinate != nil)
    }

    @Test func rmcModeNMeansNoFix() throws {
        let result = decode(sentence("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,N"))
        #expect(try #require(result.fixes.first).mode == .noFix)
    }

    @Test func gsaSystemIDAndGSVSignalIDAreRead() throws {
        guard case .sentence(.gn, .gsa(let gsa)) = SentenceParser.parse("GNGSA,A,3,82,66,81,,,,,,,,,,1.05,0.64,0.83,2")
        else {
            Issue.record("GNGSA not decoded")
            return
        }
        #expect(gsa.fixType == 3 && gsa.satellitesUsed == 3 && gsa.systemID == 2)
        #expect(gsa.pdop == 1.05 && gsa.hdop == 0.64 && gsa.vdop == 0.83)
        guard
            case .sentence(.gl, .gsv(let gsv)) = SentenceParser.parse(
                "GLGSV,3,1,10,66,40,075,48,82,56,327,48,73,22,320,34,80,37,257,18,1")
        else {
            Issue.record("GLGSV not decoded")
            return
        }
        #expect(gsv.messageCount == 3 && gsv.messageNumber == 1 && gsv.satellitesInView == 10)
        #expect(gsv.satellitesInSentence == 4 && gsv.signalID == 1)
    }

    @Test("all listed talkers are decoded", arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI"])
    func talkers(talker: String) {
        if case .sentence(let decoded, .gga) = SentenceParser.parse(
            "\(talker)GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        {
            #expect(decoded.rawValue == talker)
        } else {
            Issue.record("\(talker)GGA was not decoded")
        }
    }

    @Test func gstGivesAccuracyAndZDAGivesTheDate() throws {
        let text =
            sentence("GPZDA,201530.00,04,07,2002,00,00")
            + sentence("GPGGA,201530.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + sentence("GPGST,201530.00,1.2,,,,3.0,4.0,5.0")
        let fix = try #require(decode(text).fixes.first)
        #expect(ISO8601.string(from: fix.time) == "2002-07-04T20:15:30.000Z")
        #expect(fix.horizontalAccuracy == 5.0)
        #expect(fix.verticalAccuracy == 5.0)
    }

    @Test func vtgAndGnsAreMerged() throws {
        let text =
            sentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,010120,,")
            + sentence("GNGNS,120000.00,4807.038,N,01131.000,E,AAN,10,0.8,100.0,47.0,,")
            + sentence("GPVTG,90.0,T,,M,,N,36.0,K,A")
        let fix = try #require(decode(text).fixes.first)
        #expect(fix.mode == .threeD)
        #expect(fix.speed == 10.0)
        #expect(fix.course == 90.0)
        #expect(fix.satellitesUsed == 10)
        #expect(fix.altitudeHAE == 147.0)
    }

    @Test func timeOnlyEpochsUseTheLastDateAndRollOverAtMidnight() throws {
        let text =
            sentence("GPRMC,235959,A,4807.038,N,01131.000,E,0,0,311299,,")
            + sentence("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let fixes = decode(text).fixes
        #expect(fixes.map { ISO8601.string(from: $0.time) } == ["1999-12-31T23:59:59.000Z", "2000-01-01T00:00:00.000Z"])
    }

    @Test func undatedEpochsAreCountedOrUseTheAssumedDate() throws {
        let text = sentence("GPGGA,101010,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(decode(text).counters.undatedEpochs == 1)
        var decoder = NMEAStreamDecoder(providerID: "t")
        decoder.assumedDate = ISO8601.date(from: "2024-05-01T17:00:00Z")
        _ = decoder.feed(Array(text.utf8))
        let fix = try #require(decoder.finish().first)
        #expect(ISO8601.string(from: fix.time) == "2024-05-01T10:10:10.000Z")
    }
}
