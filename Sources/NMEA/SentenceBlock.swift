import MeridianCore

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Sixteen bytes of a sentence classified at once, for the framer's in-place path: which bytes need a look (a
/// control byte, non-ASCII, DEL, `$` or `*`) and which are commas, one bit per byte (bit `i` for byte `i`).
///
/// On x86-64 it uses SSE2 (part of every x86-64 CPU); elsewhere two eight-byte words (`ByteWord`), whose
/// `look` may mark bytes above the first one that needs a look as well: only its lowest bit is exact there.
struct SentenceBlock {
    static let width = 16

    /// The bytes that need a look; the lowest set bit is the first of them.
    let look: UInt32
    /// The commas.
    let commas: UInt32

    /// Classifies the 16 bytes at `offset` of `buffer` (which must hold them).
    @inline(__always)
    init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        #if arch(x86_64)
            self.init(vector: buffer.baseAddress! + offset)
        #else
            self.init(words: buffer, at: offset)
        #endif
    }

    #if arch(x86_64)
        /// SSE2: a signed comparison below 0x20 catches control bytes and every byte from 0x80 up at once.
        @inline(__always)
        init(vector pointer: UnsafeRawPointer) {
            let bytes = _mm_loadu_si128(pointer.assumingMemoryBound(to: __m128i.self))
            let odd = _mm_or_si128(
                _mm_or_si128(_mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x7F))),
                _mm_or_si128(
                    _mm_cmpeq_epi8(bytes, _mm_set1_epi8(Int8(UInt8(ascii: "$")))),
                    _mm_cmpeq_epi8(bytes, _mm_set1_epi8(Int8(UInt8(ascii: "*"))))))
            look = UInt32(truncatingIfNeeded: _mm_movemask_epi8(odd))
            commas = UInt32(
                truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(Int8(UInt8(ascii: ","))))))
        }
    #endif

    /// Any CPU: the same from two little-endian words (`look` exact in its lowest bit only).
    @inline(__always)
    init(words buffer: UnsafeRawBufferPointer, at offset: Int) {
        let low = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let high = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
        look = Self.compact(Self.needingALook(low)) | Self.compact(Self.needingALook(high)) << 8
        commas =
            Self.compact(ByteWord.equal(low, UInt8(ascii: ","))) | Self.compact(ByteWord.equal(high, UInt8(ascii: ",")))
            << 8
    }

    /// Writes the field starts of the commas `commas` marks in a block whose byte 0 is at body offset `offset`, as
    /// `Fields` keeps them (the offset after each comma), from `starts[0]` on; returns how many. It always writes
    /// 16 entries, so `starts` needs room for them.
    @inline(__always)
    static func writeFieldStarts(of commas: UInt32, offset: Int, to starts: UnsafeMutablePointer<UInt32>) -> Int {
        let first = UInt32(truncatingIfNeeded: offset &+ 1)
        let low = Int(truncatingIfNeeded: commas & 0xFF)
        let high = Int(truncatingIfNeeded: (commas >> 8) & 0xFF)
        let lowCount = Int(truncatingIfNeeded: SetBits.counts[low])
        writeStarts(SetBits.positions[low], adding: first, to: starts)
        writeStarts(SetBits.positions[high], adding: first &+ 8, to: starts + lowCount)
        return lowCount &+ Int(truncatingIfNeeded: SetBits.counts[high])
    }

    /// Writes the eight byte values of `positions` plus `first` to `starts[0..<8]`.
    @inline(__always)
    private static func writeStarts(_ positions: UInt64, adding first: UInt32, to starts: UnsafeMutablePointer<UInt32>)
    {
        #if arch(x86_64)
            let zero = _mm_setzero_si128()
            let halfWords = _mm_unpacklo_epi8(_mm_cvtsi64_si128(Int64(bitPattern: positions)), zero)
            let add = _mm_set1_epi32(Int32(bitPattern: first))
            let raw = UnsafeMutableRawPointer(starts)
            _mm_storeu_si128(
                raw.assumingMemoryBound(to: __m128i.self), _mm_add_epi32(_mm_unpacklo_epi16(halfWords, zero), add))
            _mm_storeu_si128(
                (raw + 16).assumingMemoryBound(to: __m128i.self),
                _mm_add_epi32(_mm_unpackhi_epi16(halfWords, zero), add))
        #else
            for k in 0..<8 { starts[k] = first &+ UInt32(truncatingIfNeeded: (positions >> UInt64(k &* 8)) & 0xFF) }
        #endif
    }

    @inline(__always)
    private static func needingALook(_ word: UInt64) -> UInt64 {
        ByteWord.unprintable(word) | ByteWord.firstEqual(word, UInt8(ascii: "$"))
            | ByteWord.firstEqual(word, UInt8(ascii: "*"))
    }

    /// The high bits of a word's bytes (as `ByteWord` marks them) gathered into its low eight bits: the multiplier
    /// moves byte `k`'s bit to bit 56 + `k` without two products meeting.
    @inline(__always)
    private static func compact(_ marks: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: ((marks >> 7) &* 0x0102_0408_1020_4080) >> 56)
    }
}

/// The set bits of each byte value, for writing a block's field starts without a loop. Literals, so that they are in
/// the binary as they are, with no lazy initialisation to check at each use; `SentenceBlockTests` derives them again.
enum SetBits {
    /// For each byte value, the indexes of its set bits from the lowest, one per byte of the word, the rest zero.
    static let positions: [UInt64] = [
        0x0000_0000_0000_0000, 0x0000_0000_0000_0000, 0x0000_0000_0000_0001, 0x0000_0000_0000_0100,
        0x0000_0000_0000_0002, 0x0000_0000_0000_0200, 0x0000_0000_0000_0201, 0x0000_0000_0002_0100,
        0x0000_0000_0000_0003, 0x0000_0000_0000_0300, 0x0000_0000_0000_0301, 0x0000_0000_0003_0100,
        0x0000_0000_0000_0302, 0x0000_0000_0003_0200, 0x0000_0000_0003_0201, 0x0000_0000_0302_0100,
        0x0000_0000_0000_0004, 0x0000_0000_0000_0400, 0x0000_0000_0000_0401, 0x0000_0000_0004_0100,
        0x0000_0000_0000_0402, 0x0000_0000_0004_0200, 0x0000_0000_0004_0201, 0x0000_0000_0402_0100,
        0x0000_0000_0000_0403, 0x0000_0000_0004_0300, 0x0000_0000_0004_0301, 0x0000_0000_0403_0100,
        0x0000_0000_0004_0302, 0x0000_0000_0403_0200, 0x0000_0000_0403_0201, 0x0000_0004_0302_0100,
        0x0000_0000_0000_0005, 0x0000_0000_0000_0500, 0x0000_0000_0000_0501, 0x0000_0000_0005_0100,
        0x0000_0000_0000_0502, 0x0000_0000_0005_0200, 0x0000_0000_0005_0201, 0x0000_0000_0502_0100,
        0x0000_0000_0000_0503, 0x0000_0000_0005_0300, 0x0000_0000_0005_0301, 0x0000_0000_0503_0100,
        0x0000_0000_0005_0302, 0x0000_0000_0503_0200, 0x0000_0000_0503_0201, 0x0000_0005_0302_0100,
        0x0000_0000_0000_0504, 0x0000_0000_0005_0400, 0x0000_0000_0005_0401, 0x0000_0000_0504_0100,
        0x0000_0000_0005_0402, 0x0000_0000_0504_0200, 0x0000_0000_0504_0201, 0x0000_0005_0402_0100,
        0x0000_0000_0005_0403, 0x0000_0000_0504_0300, 0x0000_0000_0504_0301, 0x0000_0005_0403_0100,
        0x0000_0000_0504_0302, 0x0000_0005_0403_0200, 0x0000_0005_0403_0201, 0x0000_0504_0302_0100,
        0x0000_0000_0000_0006, 0x0000_0000_0000_0600, 0x0000_0000_0000_0601, 0x0000_0000_0006_0100,
        0x0000_0000_0000_0602, 0x0000_0000_0006_0200, 0x0000_0000_0006_0201, 0x0000_0000_0602_0100,
        0x0000_0000_0000_0603, 0x0000_0000_0006_0300, 0x0000_0000_0006_0301, 0x0000_0000_0603_0100,
        0x0000_0000_0006_0302, 0x0000_0000_0603_0200, 0x0000_0000_0603_0201, 0x0000_0006_0302_0100,
        0x0000_0000_0000_0604, 0x0000_0000_0006_0400, 0x0000_0000_0006_0401, 0x0000_0000_0604_0100,
        0x0000_0000_0006_0402, 0x0000_0000_0604_0200, 0x0000_0000_0604_0201, 0x0000_0006_0402_0100,
        0x0000_0000_0006_0403, 0x0000_0000_0604_0300, 0x0000_0000_0604_0301, 0x0000_0006_0403_0100,
        0x0000_0000_0604_0302, 0x0000_0006_0403_0200, 0x0000_0006_0403_0201, 0x0000_0604_0302_0100,
        0x0000_0000_0000_0605, 0x0000_0000_0006_0500, 0x0000_0000_0006_0501, 0x0000_0000_0605_0100,
        0x0000_0000_0006_0502, 0x0000_0000_0605_0200, 0x0000_0000_0605_0201, 0x0000_0006_0502_0100,
        0x0000_0000_0006_0503, 0x0000_0000_0605_0300, 0x0000_0000_0605_0301, 0x0000_0006_0503_0100,
        0x0000_0000_0605_0302, 0x0000_0006_0503_0200, 0x0000_0006_0503_0201, 0x0000_0605_0302_0100,
        0x0000_0000_0006_0504, 0x0000_0000_0605_0400, 0x0000_0000_0605_0401, 0x0000_0006_0504_0100,
        0x0000_0000_0605_0402, 0x0000_0006_0504_0200, 0x0000_0006_0504_0201, 0x0000_0605_0402_0100,
        0x0000_0000_0605_0403, 0x0000_0006_0504_0300, 0x0000_0006_0504_0301, 0x0000_0605_0403_0100,
        0x0000_0006_0504_0302, 0x0000_0605_0403_0200, 0x0000_0605_0403_0201, 0x0006_0504_0302_0100,
        0x0000_0000_0000_0007, 0x0000_0000_0000_0700, 0x0000_0000_0000_0701, 0x0000_0000_0007_0100,
        0x0000_0000_0000_0702, 0x0000_0000_0007_0200, 0x0000_0000_0007_0201, 0x0000_0000_0702_0100,
        0x0000_0000_0000_0703, 0x0000_0000_0007_0300, 0x0000_0000_0007_0301, 0x0000_0000_0703_0100,
        0x0000_0000_0007_0302, 0x0000_0000_0703_0200, 0x0000_0000_0703_0201, 0x0000_0007_0302_0100,
        0x0000_0000_0000_0704, 0x0000_0000_0007_0400, 0x0000_0000_0007_0401, 0x0000_0000_0704_0100,
        0x0000_0000_0007_0402, 0x0000_0000_0704_0200, 0x0000_0000_0704_0201, 0x0000_0007_0402_0100,
        0x0000_0000_0007_0403, 0x0000_0000_0704_0300, 0x0000_0000_0704_0301, 0x0000_0007_0403_0100,
        0x0000_0000_0704_0302, 0x0000_0007_0403_0200, 0x0000_0007_0403_0201, 0x0000_0704_0302_0100,
        0x0000_0000_0000_0705, 0x0000_0000_0007_0500, 0x0000_0000_0007_0501, 0x0000_0000_0705_0100,
        0x0000_0000_0007_0502, 0x0000_0000_0705_0200, 0x0000_0000_0705_0201, 0x0000_0007_0502_0100,
        0x0000_0000_0007_0503, 0x0000_0000_0705_0300, 0x0000_0000_0705_0301, 0x0000_0007_0503_0100,
        0x0000_0000_0705_0302, 0x0000_0007_0503_0200, 0x0000_0007_0503_0201, 0x0000_0705_0302_0100,
        0x0000_0000_0007_0504, 0x0000_0000_0705_0400, 0x0000_0000_0705_0401, 0x0000_0007_0504_0100,
        0x0000_0000_0705_0402, 0x0000_0007_0504_0200, 0x0000_0007_0504_0201, 0x0000_0705_0402_0100,
        0x0000_0000_0705_0403, 0x0000_0007_0504_0300, 0x0000_0007_0504_0301, 0x0000_0705_0403_0100,
        0x0000_0007_0504_0302, 0x0000_0705_0403_0200, 0x0000_0705_0403_0201, 0x0007_0504_0302_0100,
        0x0000_0000_0000_0706, 0x0000_0000_0007_0600, 0x0000_0000_0007_0601, 0x0000_0000_0706_0100,
        0x0000_0000_0007_0602, 0x0000_0000_0706_0200, 0x0000_0000_0706_0201, 0x0000_0007_0602_0100,
        0x0000_0000_0007_0603, 0x0000_0000_0706_0300, 0x0000_0000_0706_0301, 0x0000_0007_0603_0100,
        0x0000_0000_0706_0302, 0x0000_0007_0603_0200, 0x0000_0007_0603_0201, 0x0000_0706_0302_0100,
        0x0000_0000_0007_0604, 0x0000_0000_0706_0400, 0x0000_0000_0706_0401, 0x0000_0007_0604_0100,
        0x0000_0000_0706_0402, 0x0000_0007_0604_0200, 0x0000_0007_0604_0201, 0x0000_0706_0402_0100,
        0x0000_0000_0706_0403, 0x0000_0007_0604_0300, 0x0000_0007_0604_0301, 0x0000_0706_0403_0100,
        0x0000_0007_0604_0302, 0x0000_0706_0403_0200, 0x0000_0706_0403_0201, 0x0007_0604_0302_0100,
        0x0000_0000_0007_0605, 0x0000_0000_0706_0500, 0x0000_0000_0706_0501, 0x0000_0007_0605_0100,
        0x0000_0000_0706_0502, 0x0000_0007_0605_0200, 0x0000_0007_0605_0201, 0x0000_0706_0502_0100,
        0x0000_0000_0706_0503, 0x0000_0007_0605_0300, 0x0000_0007_0605_0301, 0x0000_0706_0503_0100,
        0x0000_0007_0605_0302, 0x0000_0706_0503_0200, 0x0000_0706_0503_0201, 0x0007_0605_0302_0100,
        0x0000_0000_0706_0504, 0x0000_0007_0605_0400, 0x0000_0007_0605_0401, 0x0000_0706_0504_0100,
        0x0000_0007_0605_0402, 0x0000_0706_0504_0200, 0x0000_0706_0504_0201, 0x0007_0605_0402_0100,
        0x0000_0007_0605_0403, 0x0000_0706_0504_0300, 0x0000_0706_0504_0301, 0x0007_0605_0403_0100,
        0x0000_0706_0504_0302, 0x0007_0605_0403_0200, 0x0007_0605_0403_0201, 0x0706_0504_0302_0100
    ]

    /// For each byte value, the number of its set bits.
    static let counts: [UInt8] = [
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
        1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
        1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
        2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
        1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
        2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
        2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6, 3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7,
        3, 4, 4, 5, 4, 5, 5, 6, 4, 5, 5, 6, 5, 6, 6, 7, 4, 5, 5, 6, 5, 6, 6, 7, 5, 6, 6, 7, 6, 7, 7, 8
    ]
}
