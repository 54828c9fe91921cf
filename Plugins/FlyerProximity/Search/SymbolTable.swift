/// A static table of up to 255 byte strings of 1 to 8 bytes that compresses short texts (the FSST scheme of Boncz,
/// Neumann and Leis, 2020): a text is written as the one-byte codes of its longest symbols, and any byte no symbol
/// covers as `escape` and the byte. Trained on a sample of the texts it compresses (`trained(on:)`); decoding is a
/// table lookup per code, so a record is read back without touching any other.
struct SymbolTable: Sendable, Equatable {
    /// The code written before a byte no symbol covers.
    static let escape: UInt8 = 255
    static let maximumLength = 8

    /// Per code: the symbol's bytes (little-endian, zero past its length) and its length.
    let symbols: [UInt64]
    let lengths: [UInt8]
    /// Per first byte: the codes of the symbols starting with it, longest first.
    private let byFirstByte: [[UInt8]]

    /// A table of `symbols` with `lengths` (read back from storage); nil when they do not describe one.
    init?(symbols: [UInt64], lengths: [UInt8]) {
        guard symbols.count == lengths.count, symbols.count <= Int(Self.escape),
            zip(symbols, lengths).allSatisfy({ symbol, length in
                (1...UInt8(Self.maximumLength)).contains(length)
                    && (length == 8 || symbol >> (8 * UInt64(length)) == 0)
            })
        else { return nil }
        self.symbols = symbols
        self.lengths = lengths
        var byFirstByte = [[UInt8]](repeating: [], count: 256)
        for code in symbols.indices.sorted(by: { lengths[$0] > lengths[$1] || (lengths[$0] == lengths[$1] && $0 < $1) })
        {
            byFirstByte[Int(symbols[code] & 0xFF)].append(UInt8(code))
        }
        self.byFirstByte = byFirstByte
    }

    /// A table without symbols: every byte is escaped.
    static let empty = SymbolTable(symbols: [], lengths: [])!

    /// The longest symbol at the start of `bytes` (not empty): its code and length, or nil when none matches.
    private func match(_ bytes: UnsafeRawBufferPointer, at position: Int) -> (code: UInt8, length: Int)? {
        let remaining = bytes.count - position
        var word: UInt64 = 0
        withUnsafeMutableBytes(of: &word) { word in
            word.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + min(remaining, 8))]))
        }
        for code in byFirstByte[Int(bytes[position])] {
            let length = Int(lengths[Int(code)])
            guard length <= remaining else { continue }
            let mask: UInt64 = length == 8 ? ~0 : (1 << (8 * UInt64(length))) - 1
            if word & mask == symbols[Int(code)] { return (code, length) }
        }
        return nil
    }

    /// Appends `bytes` compressed to `output`.
    func encode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        var position = 0
        while position < bytes.count {
            if let (code, length) = match(bytes, at: position) {
                output.append(code)
                position += length
            } else {
                output.append(Self.escape)
                output.append(bytes[position])
                position += 1
            }
        }
    }

    /// Calls `body` with `encoded` decompressed (nil when it is not what `encode` writes: an escape at its end, or a
    /// code past the table).
    func decode<Result>(_ encoded: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encoded.count * Self.maximumLength + 8) { output in
            let base = UnsafeMutableRawPointer(output.baseAddress!)
            var written = 0
            var position = 0
            while position < encoded.count {
                let code = encoded[position]
                position += 1
                if code == Self.escape {
                    guard position < encoded.count else { return body(nil) }
                    base.storeBytes(of: encoded[position], toByteOffset: written, as: UInt8.self)
                    written += 1
                    position += 1
                } else if Int(code) < symbols.count {
                    // Eight bytes at once; only the symbol's length counts, the rest is written over next.
                    base.storeBytes(of: symbols[Int(code)].littleEndian, toByteOffset: written, as: UInt64.self)
                    written += Int(lengths[Int(code)])
                } else {
                    return body(nil)
                }
            }
            return body(UnsafeRawBufferPointer(start: base, count: written))
        }
    }
}

extension SymbolTable {
    /// A table trained on `sample` (FSST's construction): five rounds, each compressing the sample with the table so
    /// far and keeping the 255 strings covering the most bytes among its symbols, the bytes it escaped, and the
    /// concatenations of neighbouring ones (up to 8 bytes). The same sample always gives the same table.
    static func trained(on sample: [[UInt8]]) -> SymbolTable {
        var table = SymbolTable.empty
        for _ in 0..<5 {
            table = table.improved(on: sample)
        }
        return table
    }

    /// A symbol, or a byte no symbol covered (`256 + byte`), as counted while training.
    private func piece(_ unit: Int) -> (symbol: UInt64, length: Int) {
        unit >= 256 ? (UInt64(unit - 256), 1) : (symbols[unit], Int(lengths[unit]))
    }

    private func improved(on sample: [[UInt8]]) -> SymbolTable {
        let units = 512
        var single = [Int](repeating: 0, count: units)
        var pairs = [Int](repeating: 0, count: units * units)
        for text in sample {
            text.withUnsafeBytes { bytes in
                var position = 0
                var previous = -1
                while position < bytes.count {
                    let unit: Int
                    let length: Int
                    if let (code, matched) = match(bytes, at: position) {
                        (unit, length) = (Int(code), matched)
                        // The byte alone too, so that a one-byte symbol can win over a longer one that rarely helps.
                        if matched > 1 { single[256 + Int(bytes[position])] += 1 }
                    } else {
                        (unit, length) = (256 + Int(bytes[position]), 1)
                    }
                    single[unit] += 1
                    if previous >= 0 { pairs[previous * units + unit] += 1 }
                    previous = unit
                    position += length
                }
            }
        }
        struct Candidate: Hashable {
            var symbol: UInt64
            var length: Int
        }
        var gains: [Candidate: Int] = [:]
        for unit in 0..<units where single[unit] > 0 {
            let (symbol, length) = piece(unit)
            gains[Candidate(symbol: symbol, length: length), default: 0] += single[unit] * length
            for next in 0..<units where pairs[unit * units + next] > 0 {
                let (second, secondLength) = piece(next)
                guard length + secondLength <= Self.maximumLength else { continue }
                let joined = Candidate(symbol: symbol | second << (8 * UInt64(length)), length: length + secondLength)
                gains[joined, default: 0] += pairs[unit * units + next] * joined.length
            }
        }
        let best = gains.sorted { a, b in
            a.value != b.value
                ? a.value > b.value
                : a.key.length != b.key.length ? a.key.length > b.key.length : a.key.symbol < b.key.symbol
        }.prefix(Int(Self.escape))
        return SymbolTable(symbols: best.map(\.key.symbol), lengths: best.map { UInt8($0.key.length) })!
    }
}
