import MeridianCore
import Testing

@Suite("Eight-byte word tests agree with byte-by-byte ones")
struct ByteWordTests {
    /// The high bits of the bytes of `bytes` (little-endian) for which `test` holds.
    func marks(_ bytes: [UInt8], _ test: (UInt8) -> Bool) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | (test($1.element) ? UInt64(0x80) << (8 * $1.offset) : 0) }
    }

    func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    @Test("every byte value at every place, among random neighbours and among copies of the byte looked for")
    func everyByteEverywhere() {
        var random = SeededRandom(seed: 5)
        let wanted: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "$"), UInt8(ascii: "\""), 0x5C, 0x00, 0x7F, 0x80, 0xFF]
        for value in 0...255 {
            for place in 0..<8 {
                for target in wanted {
                    var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    if random.next() % 2 == 0 { bytes = [UInt8](repeating: target, count: 8) }
                    bytes[place] = UInt8(value)
                    let word = word(bytes)
                    #expect(ByteWord.equal(word, target) == marks(bytes) { $0 == target })
                    let first = ByteWord.firstEqual(word, target)
                    let exact = marks(bytes) { $0 == target }
                    #expect(first & exact == exact, "every match is marked")
                    #expect((first == 0) == (exact == 0))
                    if exact != 0 { #expect(first.trailingZeroBitCount == exact.trailingZeroBitCount) }
                    #expect(ByteWord.control(word) == marks(bytes) { $0 < 0x20 })
                    #expect(ByteWord.unprintable(word) == marks(bytes) { $0 < 0x20 || $0 > 0x7E })
                }
            }
        }
    }
}
