import Foundation
import MeridianCore
import Testing

@testable import NMEA

/// The framer's sixteen-byte blocks: the SSE2 and portable classifiers agree, the bit tables are what they say, and a
/// sentence framed in place is split into the same fields as one split by `Fields.init`.
@Suite("NMEA framer blocks")
struct SentenceBlockTests {
    /// Bytes that matter to the framer, and some that do not.
    static let alphabet: [UInt8] =
        Array("$*,\r\n.0123456789ABCDEFGPNnsew-+ ~".utf8) + [0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]

    @Test("the portable classifier finds the same first byte to look at and the same commas as the one in use")
    func portableClassifierAgrees() {
        var generator = SeededRandom(seed: 0x5EB1_0C4)
        var bytes = [UInt8](repeating: 0, count: 4096 + SentenceBlock.width)
        for round in 0..<200 {
            // Mostly plain text, so that blocks with nothing to look at (and long runs of commas) come up too.
            for index in bytes.indices {
                let roll = generator.next() % 100
                bytes[index] =
                    roll < 70
                    ? UInt8(ascii: "A") &+ UInt8(truncatingIfNeeded: generator.next() % 26)
                    : Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))]
                if round.isMultiple(of: 4), roll < 30 { bytes[index] = UInt8(ascii: ",") }
            }
            bytes.withUnsafeBytes { buffer in
                for offset in 0..<4096 {
                    let used = SentenceBlock(buffer, at: offset)
                    let portable = SentenceBlock(words: buffer, at: offset)
                    let expectedFirst = (0..<16).first { Self.needsALook(buffer[offset + $0]) }
                    #expect(Self.first(used.look) == expectedFirst, "offset \(offset)")
                    #expect(Self.first(portable.look) == expectedFirst, "offset \(offset)")
                    let commas = (0..<16).reduce(UInt32(0)) {
                        buffer[offset + $1] == UInt8(ascii: ",") ? $0 | 1 << UInt32($1) : $0
                    }
                    #expect(used.commas == commas && portable.commas == commas, "offset \(offset)")
                }
            }
        }
    }

    @Test("the set-bit tables hold each byte value's bit positions and count")
    func setBitTables() {
        for value in 0..<256 {
            let positions = (0..<8).filter { value & (1 << $0) != 0 }
            var packed: UInt64 = 0
            for (slot, position) in positions.enumerated() { packed |= UInt64(position) << UInt64(8 * slot) }
            #expect(SetBits.positions[value] == packed, "\(value)")
            #expect(Int(SetBits.counts[value]) == positions.count, "\(value)")
        }
    }

    @Test("a block's field starts are the offsets after its commas, for every comma mask")
    func fieldStartsOfEveryMask() {
        var starts = [UInt32](repeating: 0, count: 16)
        for mask in 0..<(1 << 16) {
            let written = starts.withUnsafeMutableBufferPointer {
                SentenceBlock.writeFieldStarts(of: UInt32(mask), offset: 40, to: $0.baseAddress!)
            }
            let expected = (0..<16).filter { mask & (1 << $0) != 0 }.map { UInt32(40 + $0 + 1) }
            #expect(written == expected.count && Array(starts[0..<written]) == expected, "mask \(mask)")
        }
    }

    @Test("a sentence framed in place has the fields Fields.init finds, at every alignment and up to the field limit")
    func framedFieldsMatchSplitFields() throws {
        var generator = SeededRandom(seed: 0xF1E1_D5)
        for round in 0..<3000 {
            // Fields of 0 to 12 characters, as many as 80 of them (more than `Fields.maximumCount`).
            let fieldCount = 1 + Int(generator.next() % (round.isMultiple(of: 10) ? 80 : 24))
            var body = Array("GPXYZ".utf8)
            for _ in 1..<fieldCount {
                body.append(UInt8(ascii: ","))
                let length = Int(generator.next() % 13) * Int(generator.next() % 2)
                for _ in 0..<length {
                    body.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: generator.next() % 10))
                }
            }
            guard body.count + 3 <= SentenceFramer.maximumLength else { continue }
            let checksum = body.reduce(UInt8(0), ^)
            let lead = Int(generator.next() % 16)
            let text =
                [UInt8](repeating: 0x0A, count: lead) + [UInt8(ascii: "$")] + body
                + Array(String(format: "*%02X\r\n$GPXYZ*00\r\n", checksum).utf8)
            try text.withUnsafeBytes { buffer in
                var framer = SentenceFramer(policy: .required)
                try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Fields.storageCapacity) { framed in
                    var index = 0
                    #expect(framer.advance(buffer, index: &index, fieldStarts: framed.baseAddress!))
                    let direct = try #require(framer.directBody, "round \(round)")
                    let bodyBytes = UnsafeRawBufferPointer(rebasing: buffer[direct]).assumingMemoryBound(to: UInt8.self)
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Fields.storageCapacity) { split in
                        let fromFramer = Fields(framed: bodyBytes, storage: framed, commas: framer.directCommas)
                        let fromSplit = Fields(bodyBytes, storage: split)
                        #expect((fromFramer == nil) == (fromSplit == nil), "round \(round): \(fieldCount) fields")
                        #expect((fromSplit == nil) == (fieldCount > Fields.maximumCount), "round \(round)")
                        if let fromFramer, let fromSplit {
                            #expect(fromFramer.count == fromSplit.count, "round \(round)")
                            for field in 0..<fromSplit.count {
                                #expect(fromFramer.range(field) == fromSplit.range(field), "round \(round), \(field)")
                            }
                        }
                    }
                }
            }
        }
    }

    private static func needsALook(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "*")
    }

    private static func first(_ bits: UInt32) -> Int? { bits == 0 ? nil : bits.trailingZeroBitCount }
}
