import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

/// Builds `$body*HH\r\n` with a correct checksum.
func sentence(_ body: String, lowercase: Bool = false) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(format: lowercase ? "%02x" : "%02X", checksum)
    return "$\(body)*\(hex)\r\n"
}

func decode(_ text: String, checksum: ChecksumPolicy = .required) -> (fixes: [Fix], counters: NMEACounters) {
    var decoder = NMEAStreamDecoder(providerID: "t", checksum: checksum)
    var fixes = decoder.feed(Array(text.utf8))
    fixes += decoder.finish()
    return (fixes, decoder.counters)
}

@Suite("NMEA framing and checksums")
struct SentenceFramingTests {
    let rmc = "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"

    @Test func acceptsUpperAndLowerCaseChecksums() {
        let result = decode(
            sentence(rmc) + sentence(rmc.replacingOccurrences(of: "123519", with: "123520"), lowercase: true))
        #expect(result.counters.sentences == 2)
        #expect(result.counters.badChecksum == 0)
        #expect(result.fixes.count == 2)
    }

    @Test("checksums are right for every body length and byte alignment (the framer reads sixteen bytes at a time)")
    func checksumsAtEveryLengthAndAlignment() {
        for length in 0...70 {
            let body = "GPTXT,01,01,02," + String(repeating: "ab~ !%9Z", count: 9).prefix(length)
            for junk in 0..<8 {
                let lead = String(repeating: "\n", count: junk)
                let good = decode(lead + sentence(String(body)))
                #expect(
                    good.counters.sentences == 1 && good.counters.badChecksum == 0, "length \(length), offset \(junk)")
                let checksum = body.utf8.reduce(UInt8(0), ^) ^ 0x01
                let bad = decode(lead + "$\(body)*\(String(format: "%02X", checksum))\r\n")
                #expect(
                    bad.counters.sentences == 0 && bad.counters.badChecksum == 1, "length \(length), offset \(junk)")
            }
        }
    }

    @Test("a control, DEL, non-ASCII or '$' byte anywhere in a body keeps the sentence from being accepted")
    func oddBytesAtEveryPosition() {
        let body = Array("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,".utf8)
        for position in 5..<body.count {
            for odd: UInt8 in [0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "$")] {
                var mutated = body
                mutated[position] = odd
                let checksum = mutated.reduce(UInt8(0), ^)
                var decoder = NMEAStreamDecoder(providerID: "t")
                _ = decoder.feed([UInt8(ascii: "$")] + mutated + Array(String(format: "*%02X\r\n", checksum).utf8))
                _ = decoder.finish()
                #expect(
                    decoder.counters.sentences == 0 && decoder.counters.invalidFields == 0,
                    "byte \(odd) at \(position): never reaches the parser")
            }
        }
    }

    @Test func rejectsWrongAndMalformedChecksums() {
        let text = "$\(rmc)*00\r\n$\(rmc)*\r\n$\(rmc)*4\r\n$\(rmc)*ZZ\r\n"
        let result = decode(text)
        #expect(result.counters.badChecksum == 4)
        #expect(result.counters.sentences == 0)
        #expect(result.fixes.isEmpty)
    }

    @Test func missingChecksumFollowsThePolicy() {
        let text = "$\(rmc)\r\n"
        let required = decode(text)
        #expect(required.counters.missingChecksum == 1)
        #expect(required.fixes.isEmpty)
        let optional = decode(text, checksum: .optional)
        #expect(optional.counters.sentences == 1)
        #expect(optional.fixes.count == 1)
    }

    @Test func resynchronisesOnDollarInsideATruncatedSentence() throws {
        let gll = "GPGLL,2638.1728,N,08011.3893,W,030131.000,A,A"
        let text = "$GPGGA,030130" + sentence(gll)
        let result = decode(text + sentence("GPRMC,030131.0,A,2638.1728,N,08011.3893,W,0.00,219.6,010413,,"))
        #expect(result.counters.truncated == 1)
        #expect(result.counters.sentences == 2)
        let fix = try #require(result.fixes.last)
        #expect(abs((fix.coordinate?.latitude ?? 0) - (26 + 38.1728 / 60)) < 1e-12)
    }

    @Test func skipsCommentsAndGarbageCountingThem() {
        let text = "# Name: test\r\n#\r\nfoobar\r\n\u{1}\u{2}\u{FF}" + sentence(rmc)
        let result = decode(text)
        #expect(result.counters.commentLines == 2)
        #expect(result.counters.garbageBytes == "foobar".utf8.count + "\u{1}\u{2}\u{FF}".utf8.count)
        #expect(result.counters.sentences == 1)
    }

    @Test func acceptsLongSentencesAndRejectsOverlongOnes() {
        // 130+ characters: a GSV with signal id and a GSA with system id are this long on real receivers.
        let long = "GPTXT,01,01,02," + String(repeating: "u-blox AG ", count: 12)
        #expect(long.utf8.count > 130)
        let accepted = decode(sentence(long))
        #expect(accepted.counters.sentences == 1)
        let overlong = decode(sentence("GPTXT," + String(repeating: "A", count: 400)) + sentence(rmc))
        #expect(overlong.counters.tooLong == 1)
        #expect(overlong.counters.sentences == 1)
    }

    @Test func unknownTalkersAndTypesAreCountedNotDecoded() {
        let result = decode(
            sentence("IIGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + sentence("GPRMB,A,,,,,,,,,,,,V")
                + sentence("PGRMZ,48,f,3"))
        #expect(result.counters.unknownType == 3)
        #expect(result.counters.sentences == 0)
    }

    @Test func invalidFieldsRejectTheSentence() {
        let result = decode(
            sentence("GPRMC,123519,A,48x7.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
                + sentence("GPGGA,123519,9507.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(result.counters.invalidFields == 2)
    }

    @Test("sentences read in place (split into fields while framing) and byte by byte give the same fields: real logs")
    func inPlaceAndByteByByteAgreeOnRealLogs() throws {
        let folder = TestData.url("nmea")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".log") }
        #expect(logs.count > 10)
        for log in logs.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(log))
            guard data.count < 200_000 else { continue }
            var whole = NMEAStreamDecoder(providerID: "t")
            let inPlace = whole.feed(data) + whole.finish()
            var bytewise = NMEAStreamDecoder(providerID: "t")
            var assembled: [Fix] = []
            for byte in data { assembled += bytewise.feed(CollectionOfOne(byte)) }
            assembled += bytewise.finish()
            #expect(inPlace == assembled, "\(log)")
            #expect(whole.counters == bytewise.counters, "\(log)")
        }
    }

    @Test("64 fields are read, 65 and more reject the sentence, in place and byte by byte")
    func fieldLimitInPlaceAndByteByByte() {
        let text = (60...70).map { sentence("GPTXT" + String(repeating: ",01", count: $0)) + sentence(rmc) }.joined()
        let whole = decode(text)
        var decoder = NMEAStreamDecoder(providerID: "t")
        var fixes: [Fix] = []
        for byte in text.utf8 { fixes += decoder.feed(CollectionOfOne(byte)) }
        fixes += decoder.finish()
        #expect(whole.counters.invalidFields == 7)
        #expect(whole.counters.sentences == 4 + 11)
        #expect(decoder.counters == whole.counters)
        #expect(fixes == whole.fixes)
    }

    @Test func chunkBoundariesDoNotMatter() {
        let text = Array(
            (sentence(rmc) + "#c\r\n" + sentence(rmc.replacingOccurrences(of: "123519", with: "123520"))).utf8)
        let whole = decode(String(decoding: text, as: UTF8.self))
        var decoder = NMEAStreamDecoder(providerID: "t")
        var fixes: [Fix] = []
        for byte in text { fixes += decoder.feed(CollectionOfOne(byte)) }
        fixes += decoder.finish()
        #expect(fixes == whole.fixes)
        #expect(decoder.counters == whole.counters)
    }
}
