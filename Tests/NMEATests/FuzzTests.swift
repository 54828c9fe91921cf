import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

@Suite("NMEA decoder on hostile input")
struct FuzzTests {
    /// Feeds `bytes` in random chunk sizes and checks that every `$` ends in exactly one counter
    /// (input must contain no `#`, which would start a comment line that hides its `$`).
    func check(_ bytes: [UInt8], seed: UInt64, checksum: ChecksumPolicy = .required) {
        var random = SeededRandom(seed: seed)
        var decoder = NMEAStreamDecoder(providerID: "fuzz", checksum: checksum)
        var fixes: [Fix] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...4096, using: &random))
            fixes += decoder.feed(bytes[start..<end])
            start = end
        }
        fixes += decoder.finish()
        let c = decoder.counters
        let dollars = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "$") ? 1 : 0) }
        #expect(dollars == c.sentences + c.unknownType + c.rejectedSentences, "\(c)")
        #expect(c.fixesEmitted == fixes.count)
        for (index, fix) in fixes.enumerated() {
            let problems = ProviderConformance.check(fix, index: index, id: "fuzz")
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test("seeded random bytes", arguments: [1, 2, 3] as [UInt64])
    func randomBytes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        // Bias towards NMEA's alphabet so that framing paths are exercised, not just garbage.
        let alphabet = Array("$*,.0123456789ABCDEFGNPRMSTVW\r\n".utf8)
        let bytes = (0..<300_000).map { _ -> UInt8 in
            let byte =
                Bool.random(using: &random)
                ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            return byte == UInt8(ascii: "#") ? 0 : byte
        }
        check(bytes, seed: seed)
        check(bytes, seed: seed, checksum: .optional)
    }

    @Test(
        "mutated real sentences",
        arguments: ["ublox-zed-f9p-nmea.log", "garmin15x.log", "quectel-eg25-g.log", "gp-320fw-2019-04-07-coldboot.log"]
    )
    func mutatedSentences(log: String) throws {
        let data = try Data(contentsOf: TestData.url("nmea/\(log)"))
        var random = SeededRandom(seed: UInt64(log.utf8.count))
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        lines.removeAll { $0.first == UInt8(ascii: "#") }
        var bytes: [UInt8] = []
        for _ in 0..<5 {
            for var line in lines where !line.isEmpty {
                switch Int.random(in: 0..<8, using: &random) {
                case 0:
                    line[Int.random(in: 0..<line.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                case 1: line.remove(at: Int.random(in: 0..<line.count, using: &random))
                case 2: line.insert(0, at: Int.random(in: 0...line.count, using: &random))
                case 3:
                    // invalid UTF-8
                    line.insert(contentsOf: [0xC3, 0x28, 0xFF], at: Int.random(in: 0...line.count, using: &random))
                case 4: line = Array(line.prefix(Int.random(in: 0..<line.count, using: &random)))
                case 5: line += line
                default: break
                }
                bytes += line.map { $0 == UInt8(ascii: "#") ? UInt8(ascii: "%") : $0 } + [0x0A]
            }
        }
        check(bytes, seed: 7)
    }

    @Test func veryLongLineWithoutEndAndNULs() {
        var bytes = Array("$GPGGA,".utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 1_000_000)
        bytes += [0, 0, 0] + Array(sentence("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W").utf8)
        check(bytes, seed: 11)
        var decoder = NMEAStreamDecoder(providerID: "fuzz")
        _ = decoder.feed(bytes)
        #expect(decoder.finish().count == 1)
        #expect(decoder.counters.tooLong == 1)
    }
}
