/// Strings (or other byte runs) packed into one byte array with their start offsets (UTF-8, no per-string allocation).
struct PackedStrings: Sendable {
    /// `count + 1` offsets into `bytes`.
    private(set) var starts: [UInt32] = [0]
    private(set) var bytes: [UInt8] = []

    init() {}

    /// Strings read back from stored arrays; nil when the offsets do not fit the bytes.
    init?(starts: [UInt32], bytes: [UInt8]) {
        guard let first = starts.first, first == 0, starts.last.map({ Int($0) == bytes.count }) == true else {
            return nil
        }
        for index in 1..<starts.count where starts[index] < starts[index - 1] { return nil }
        self.starts = starts
        self.bytes = bytes
    }

    var count: Int { starts.count - 1 }

    mutating func append(_ text: String) {
        append(bytes: text.utf8)
    }

    mutating func append<Bytes: Sequence>(bytes run: Bytes) where Bytes.Element == UInt8 {
        bytes += run
        starts.append(UInt32(bytes.count))
    }

    /// Calls `body` with the bytes of entry `index`, without copying them.
    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[Int(starts[index])..<Int(starts[index + 1])]))
        }
    }

    subscript(index: Int) -> String {
        String(decoding: bytes[Int(starts[index])..<Int(starts[index + 1])], as: UTF8.self)
    }

    /// Asks the processor to fetch entry `index`'s offset into its cache (`Array.prefetch`).
    func prefetchOffset(_ index: Int) {
        starts.prefetch(index)
    }

    /// Asks the processor to fetch the first bytes of entries `indices` into its cache: all their offsets, then all
    /// their bytes, so that the cache misses of reading them overlap instead of coming one after another.
    func prefetch(_ indices: some Collection<Int>) {
        for index in indices { starts.prefetch(index) }
        for index in indices {
            let start = Int(starts[index])
            if start < bytes.count { bytes.prefetch(start) }
        }
    }

    /// The bytes of entry `index`.
    func bytes(_ index: Int) -> ArraySlice<UInt8> {
        bytes[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// Compares string `index` with `text`'s UTF-8 bytes, byte by byte (shorter first on a common prefix).
    func compare(_ index: Int, _ text: [UInt8]) -> Int {
        let start = Int(starts[index]), end = Int(starts[index + 1])
        let length = end - start
        for offset in 0..<min(length, text.count) where bytes[start + offset] != text[offset] {
            return bytes[start + offset] < text[offset] ? -1 : 1
        }
        return length == text.count ? 0 : (length < text.count ? -1 : 1)
    }

    /// Byte order of strings `a` and `b`.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        let aStart = Int(starts[a]), aEnd = Int(starts[a + 1]), bStart = Int(starts[b]), bEnd = Int(starts[b + 1])
        return bytes[aStart..<aEnd].lexicographicallyPrecedes(bytes[bStart..<bEnd])
    }
}
