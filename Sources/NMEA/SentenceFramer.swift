import MeridianCore

/// Cuts a byte stream into NMEA sentences and verifies their checksums.
///
/// It resynchronises on every `$`: a sentence cut short and merged into the
/// next one (`$GPGGA,0301$GPGLL,…`) loses only the broken part. `#` comment
/// lines, binary noise and text outside sentences are skipped and counted.
///
/// A sentence that lies wholly in the input buffer is checked in place, sixteen bytes
/// at a time, and split into fields in the same pass; others are assembled byte by byte in `line`.
struct SentenceFramer: Sendable {
    /// Longest accepted sentence, from `$` to the checksum inclusive (NMEA allows 82;
    /// real receivers send up to about 130; gpsd HEAD accepts more).
    static let maximumLength = 255

    private enum State {
        case lineStart, garbage, comment, sentence, skipping
    }

    private var state = State.lineStart
    /// Sentence bytes after `$`, up to but excluding the line end.
    private(set) var line: [UInt8] = []
    /// Index of `*` in `line`, if seen.
    private var star: Int?
    /// XOR of the bytes before `*`.
    private var checksum: UInt8 = 0
    let policy: ChecksumPolicy
    var counters = NMEACounters()

    init(policy: ChecksumPolicy) {
        self.policy = policy
        line.reserveCapacity(Self.maximumLength + 1)
    }

    /// Number of bytes of the body in `line` (the part before `*`).
    var bodyCount: Int { star ?? line.count }

    /// When the last completed sentence lay wholly inside the input buffer, its body's range there
    /// (read in place, without copying into `line`); `nil` when the body is in `line`.
    private(set) var directBody: Range<Int>?
    /// The commas in `directBody`, whose field starts `advance` wrote into its `fieldStarts` (see `Fields`).
    private(set) var directCommas = 0

    /// Consumes bytes from `buffer` starting at `index` until a sentence completes
    /// (returns `true`, with `index` after the terminator) or the buffer ends (`false`). A sentence read in
    /// place (`directBody`) leaves its field starts in `fieldStarts` (`Fields.storageCapacity` of them).
    mutating func advance(_ buffer: UnsafeRawBufferPointer, index: inout Int, fieldStarts: UnsafeMutablePointer<UInt32>)
        -> Bool
    {
        let end = buffer.count
        var i = index
        while i < end {
            let byte = buffer[i]
            i &+= 1
            switch state {
            case .sentence:
                if byte >= 0x20 && byte <= 0x7E {
                    if byte == UInt8(ascii: "$") {
                        counters.truncated &+= 1
                        startSentence()
                    } else if line.count >= Self.maximumLength {
                        counters.tooLong &+= 1
                        state = .skipping
                    } else {
                        if star == nil {
                            if byte == UInt8(ascii: "*") { star = line.count } else { checksum ^= byte }
                        }
                        line.append(byte)
                    }
                } else if byte == 0x0A || byte == 0x0D {
                    state = .lineStart
                    if complete() {
                        index = i
                        return true
                    }
                } else {
                    // A control or non-ASCII byte inside a sentence: the sentence is broken.
                    counters.truncated &+= 1
                    counters.garbageBytes &+= 1
                    state = .garbage
                }
            case .lineStart:
                switch byte {
                case UInt8(ascii: "$"):
                    if openSentence(buffer, at: &i, fieldStarts: fieldStarts) {
                        index = i
                        return true
                    }
                case UInt8(ascii: "#"):
                    counters.commentLines &+= 1
                    state = .comment
                case 0x0A, 0x0D: break
                default:
                    counters.garbageBytes &+= 1
                    state = .garbage
                }
            case .garbage:
                switch byte {
                case UInt8(ascii: "$"):
                    if openSentence(buffer, at: &i, fieldStarts: fieldStarts) {
                        index = i
                        return true
                    }
                case 0x0A, 0x0D: state = .lineStart
                default: counters.garbageBytes &+= 1
                }
            case .comment:
                if byte == 0x0A || byte == 0x0D { state = .lineStart }
            case .skipping:
                switch byte {
                case UInt8(ascii: "$"): startSentence()
                case 0x0A, 0x0D: state = .lineStart
                default: break
                }
            }
        }
        index = i
        return false
    }

    /// Starts a sentence at a `$` and, when the whole sentence lies in `buffer`, reads it in place;
    /// returns true when it completed there (`i` is then after its terminator).
    private mutating func openSentence(
        _ buffer: UnsafeRawBufferPointer, at i: inout Int, fieldStarts: UnsafeMutablePointer<UInt32>
    ) -> Bool {
        directBody = nil
        if let next = completeInPlace(buffer, from: i, fieldStarts: fieldStarts) {
            i = next
            return directBody != nil
        }
        startSentence()
        return false
    }

    /// At end of input: a sentence without a final line end still counts.
    mutating func finish() -> Bool {
        guard state == .sentence else { return false }
        state = .lineStart
        return complete()
    }

    /// The fast path: when the sentence starting at `start` (just after `$`) ends inside `buffer` with
    /// only printable bytes, checks it in place and writes its field starts to `fieldStarts` as `Fields`
    /// keeps them (the offset after each comma of the body; up to `Fields.maximumCount` of them, all
    /// counted in `directCommas`). Returns the index after its line end (with `directBody` set when it is
    /// valid, the rejection counted otherwise), or `nil` to fall back to byte-by-byte framing.
    private mutating func completeInPlace(
        _ buffer: UnsafeRawBufferPointer, from start: Int, fieldStarts: UnsafeMutablePointer<UInt32>
    ) -> Int? {
        let limit = min(buffer.count, start + Self.maximumLength + 1)
        var j = start
        var sum: UInt8 = 0
        var starIndex = -1
        var commas = 0
        /// The field starts of the commas `bits` marks in the block at `j` (the storage's slack takes the block's
        /// while fewer than `Fields.maximumCount` came before).
        @inline(__always) func recordCommas(_ bits: UInt32) {
            if commas < Fields.maximumCount {
                commas &+= SentenceBlock.writeFieldStarts(of: bits, offset: j &- start, to: fieldStarts + (commas &+ 1))
            } else {
                commas &+= bits.nonzeroBitCount
            }
        }
        // Sixteen bytes at a time up to the first byte that needs a look (the `*`, the line end, anything odd).
        var wordSum: UInt64 = 0
        while j &+ SentenceBlock.width <= limit {
            let block = SentenceBlock(buffer, at: j)
            let low = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            let high = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: j &+ 8, as: UInt64.self))
            if block.look != 0 {
                // The lowest marked byte is exact: the bytes before it are plain text and go into the sum.
                let plain = block.look.trailingZeroBitCount
                recordCommas(block.commas & ((1 &<< UInt32(plain)) &- 1))
                if plain >= 8 {
                    wordSum ^= low ^ (high & Self.lowBytes(plain &- 8))
                } else {
                    wordSum ^= low & Self.lowBytes(plain)
                }
                j &+= plain
                break
            }
            wordSum ^= low ^ high
            recordCommas(block.commas)
            j &+= SentenceBlock.width
        }
        wordSum ^= wordSum >> 32
        wordSum ^= wordSum >> 16
        wordSum ^= wordSum >> 8
        sum = UInt8(truncatingIfNeeded: wordSum)
        // The usual end, `*`, two hex digits and the line end, checked at once (what `validate` checks).
        if j &+ 3 < limit, buffer[j] == UInt8(ascii: "*"), let high = Self.hexValue(buffer[j &+ 1]),
            let low = Self.hexValue(buffer[j &+ 2]), buffer[j &+ 3] == 0x0D || buffer[j &+ 3] == 0x0A
        {
            state = .lineStart
            let valid = high << 4 | low == sum
            if !valid { counters.badChecksum &+= 1 }
            directBody = valid ? start..<j : nil
            directCommas = commas
            return Self.after(lineEndAt: j &+ 3, in: buffer)
        }
        while j < limit {
            let byte = buffer[j]
            if byte == 0x0D || byte == 0x0A { break }
            guard byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: "$") else { return nil }
            if starIndex < 0 {
                if byte == UInt8(ascii: "*") {
                    starIndex = j
                } else {
                    sum ^= byte
                    if byte == UInt8(ascii: ",") {
                        commas &+= 1
                        if commas <= Fields.maximumCount {
                            fieldStarts[commas] = UInt32(truncatingIfNeeded: j &- start &+ 1)
                        }
                    }
                }
            }
            j &+= 1
        }
        guard j < limit, j - start <= Self.maximumLength else { return nil }
        state = .lineStart
        let line = UnsafeRawBufferPointer(rebasing: buffer[start..<j])
        let valid = validate(line, star: starIndex < 0 ? nil : starIndex - start, checksum: sum)
        directBody = valid ? start..<(starIndex < 0 ? j : starIndex) : nil
        directCommas = commas
        return Self.after(lineEndAt: j, in: buffer)
    }

    /// The index after the line end at `index`: past a CR LF pair at once (the LF would only be skipped at the next
    /// line start).
    @inline(__always)
    private static func after(lineEndAt index: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        if buffer[index] == 0x0D, index &+ 1 < buffer.count, buffer[index &+ 1] == 0x0A { return index &+ 2 }
        return index &+ 1
    }

    private mutating func startSentence() {
        directBody = nil
        if !line.isEmpty { line.removeAll(keepingCapacity: true) }
        star = nil
        checksum = 0
        state = .sentence
    }

    /// Verifies the checksum of the line in `line`; counts a rejection and returns `false` when it fails.
    private mutating func complete() -> Bool {
        let (star, checksum) = (self.star, self.checksum)
        var copy = line
        line = []
        defer { line = copy }
        return copy.withUnsafeMutableBytes { validate(UnsafeRawBufferPointer($0), star: star, checksum: checksum) }
    }

    /// Checks a line (bytes after `$`, without the line end) whose `*` is at `star` and whose body XORs to `checksum`.
    private mutating func validate(_ line: UnsafeRawBufferPointer, star: Int?, checksum: UInt8) -> Bool {
        guard let star else {
            if policy == .required || line.isEmpty {
                counters.missingChecksum &+= 1
                return false
            }
            return true
        }
        guard line.count == star + 3,
            let high = Self.hexValue(line[star + 1]), let low = Self.hexValue(line[star + 2]),
            high << 4 | low == checksum
        else {
            counters.badChecksum &+= 1
            return false
        }
        return true
    }

    /// The lowest `count` bytes of a word (0–7) set, for the part of a block before the first byte that needs a look.
    @inline(__always)
    private static func lowBytes(_ count: Int) -> UInt64 { (1 &<< UInt64(count &* 8)) &- 1 }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x37
        case 0x61...0x66: return byte &- 0x57
        default: return nil
        }
    }
}
