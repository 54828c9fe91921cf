import Foundation

/// JSON numbers rounded to what they mean, decided by the key that holds them (Meridian's keys name their unit):
/// coordinates (`lat`, `lon`, `latitude`, `longitude`, GeoJSON `coordinates`, `bbox`) 7 decimals (about 1 cm);
/// seconds (`…_s`, `seconds`, paces `…_s_per_km`) 3; metres (`…_m`, `meters`, `alt_hae`, `alt_msl`, `eph`, `epv`,
/// `accuracy`) 2; speeds (`…_mps`, `speed`) 3; bearings (`track`, `bearing`, `…_bearing`) 2; heart rate, cadence
/// and power (`…_bpm`, `…_spm`, `…_w`) 1. Other numbers are left as the encoder writes them.
/// A rounded number is written as `NumberText.trimmed` writes it: `47.362`, never `47.361999999999995` or `1e-05`
/// (magnitudes of 9e15 units of the last decimal and more, meaningless for these units, are left alone).
///
/// Both of Meridian's JSON writers use it: `MeridianJSON`'s encoder (`roundNumbers(in:)` over its text) and the
/// hand-written encoders of hot paths (`JSONScratchWriter.number(_:_:)` with a `JSONKey`), so that their texts stay
/// the same.
public enum JSONRounding {
    /// The decimals kept for a number under `key` (its snake_case name, without quotes), or nil to leave it as it is.
    public static func decimals(forKey key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (name, decimals) in exact where key.elementsEqual(name) { return decimals }
        for (suffix, decimals) in suffixes
        where key.count > suffix.count && key.reversed().starts(with: suffix.reversed()) {
            return decimals
        }
        return nil
    }

    /// Writes `value` rounded to `decimals` as `NumberText.trimmed` writes it and returns the byte count (at most
    /// `NumberText.maximumWritten`); nil, writing nothing, for a value too large for that (then left as it is).
    public static func write(_ value: Double, decimals: Int, to output: UnsafeMutablePointer<UInt8>) -> Int? {
        NumberText.write(value, decimals: decimals, trimming: true, to: output)
    }

    /// `decimals(forKey:)` for a key written as the hand-written encoders write it (`,"lat":`): the text between its quotes.
    public static func decimals(forWrittenKey key: StaticString) -> Int? {
        key.withUTF8Buffer { bytes in
            guard let open = bytes.firstIndex(of: UInt8(ascii: "\"")),
                let close = bytes.lastIndex(of: UInt8(ascii: "\"")),
                open < close
            else { return nil }
            return decimals(forKey: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]))
        }
    }

    private static let exact: [([UInt8], Int)] = [
        ("lat", 7), ("lon", 7), ("latitude", 7), ("longitude", 7), ("coordinates", 7), ("bbox", 7),
        ("seconds", 3), ("speed", 3),
        ("meters", 2), ("metres", 2), ("alt_hae", 2), ("alt_msl", 2), ("eph", 2), ("epv", 2), ("accuracy", 2),
        ("track", 2), ("bearing", 2)
    ].map { (Array($0.0.utf8), $0.1) }

    /// Longest first, so that `_s_per_km_per_period` is not taken for `_period`.
    private static let suffixes: [([UInt8], Int)] = [
        ("_s_per_km_per_period", 3), ("_m_per_period", 2), ("_s_per_km", 3), ("_bearing", 2),
        ("_mps", 3), ("_bpm", 1), ("_spm", 1), ("_s", 3), ("_m", 2), ("_w", 1)
    ].map { (Array($0.0.utf8), $0.1) }

    /// `json` (as JSONEncoder writes it, compact or pretty) with every number under a rounded key rewritten (`-0`
    /// becomes `0`); a number inside an array counts as under the key that holds the array.
    public static func roundNumbers(in json: Data) -> Data {
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var output = Data()
            output.reserveCapacity(bytes.count)
            var scanner = Scanner()
            var index = 0
            var copied = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let end = stringEnd(bytes, from: index)
                    scanner.string(UnsafeBufferPointer(rebasing: bytes[(index + 1)..<max(index + 1, end - 1)]))
                    index = end
                    continue
                }
                if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    var end = index + 1
                    while end < bytes.count, numberBytes.contains(bytes[end]) { end += 1 }
                    if let decimals = scanner.decimals,
                        let value = Double(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self))
                    {
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberText.maximumWritten) { rounded in
                            guard let count = write(value, decimals: decimals, to: rounded.baseAddress!) else { return }
                            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                            output.append(contentsOf: UnsafeBufferPointer(rebasing: rounded[0..<count]))
                            copied = end
                        }
                    }
                    scanner.value()
                    index = end
                    continue
                }
                scanner.punctuation(byte)
                index += 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
            return output
        }
    }

    /// The bytes of a JSON number after its first.
    private static let numberBytes = Set("0123456789.eE+-".utf8)

    /// The index just past the string that starts (with its quote) at `start`.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// Which key the next value belongs to, through nested objects and arrays.
    private struct Scanner {
        /// Per open container: whether it is an object, and the rounding of the key its values are under.
        private var stack: [(isObject: Bool, decimals: Int?)] = []
        /// The last string read in an object, until its colon says it was a key.
        private var pendingKey: Int?? = nil
        private var expectingKey = false

        /// The rounding for a value read now.
        var decimals: Int? { stack.last?.decimals ?? nil }

        mutating func string(_ text: UnsafeBufferPointer<UInt8>) {
            if expectingKey { pendingKey = .some(JSONRounding.decimals(forKey: text)) }
            expectingKey = false
        }

        mutating func value() {
            expectingKey = false
        }

        mutating func punctuation(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "{"):
                stack.append((true, nil))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append((false, decimals))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ":"):
                if let key = pendingKey, !stack.isEmpty { stack[stack.count - 1].decimals = key }
                pendingKey = nil
            case UInt8(ascii: ","):
                expectingKey = stack.last?.isObject ?? false
            default:
                break
            }
        }
    }
}
