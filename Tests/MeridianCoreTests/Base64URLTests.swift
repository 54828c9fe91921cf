import Foundation
import Testing

@testable import MeridianCore

@Suite("Base64url cursors")
struct Base64URLTests {
    /// A seeded string of `length` scalars from ASCII to four-byte UTF-8.
    private static func text(length: Int, generator: inout some RandomNumberGenerator) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF]
        var text = ""
        for _ in 0..<length {
            let range = ranges.randomElement(using: &generator)!
            text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
        }
        return text
    }

    @Test(
        "encodes as Foundation's base64 with - and _ and no padding, at every length, and reads back", arguments: 0..<24
    )
    func encodes(length: Int) {
        var generator = SeededRandom(seed: UInt64(length) + 1)
        var seen = Set<Character>()
        for _ in 0..<50 {
            let text = Self.text(length: length, generator: &generator)
            let foundation = Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let encoded = Base64URL.encoded(text)
            #expect(encoded == foundation)
            #expect(Base64URL.decoded(encoded) == Array(text.utf8))
            seen.formUnion(encoded)
        }
        if length >= 8 { #expect(seen.count == 64) }
    }

    @Test(
        "bytes of any value (device keys) encode as Foundation's base64 with - and _ and no padding", arguments: 0..<40)
    func encodesBytes(length: Int) {
        var generator = SeededRandom(seed: UInt64(length) + 100)
        for _ in 0..<20 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encoded(bytes: bytes) == foundation)
            #expect(Base64URL.decoded(foundation) == bytes)
        }
    }

    @Test("text that is not base64url decodes to nothing", arguments: ["A", "AB$C", "A=BC", "AB C", "ü", "AAAAA"])
    func refuses(text: String) {
        #expect(Base64URL.decoded(text) == nil)
    }
}
