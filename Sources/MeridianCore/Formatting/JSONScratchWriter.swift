import Foundation

/// JSON text written as bytes into a scratch buffer that has room for all of it, with exactly the
/// numbers, escapes and dates `MeridianJSON`'s encoder writes: for hand-written encoders of hot
/// paths (`FixJSONWriter`, API answers), which must produce the encoder's text byte for byte.
///
/// A `TextOutputStream` so that `Double.write(to:)` hands over its digits through `_writeASCII`
/// as bytes, without making a `String` (the digits are the same as `Double.description`'s).
public struct JSONScratchWriter: TextOutputStream {
    public let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    public var count = 0

    public init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// The most bytes `string(_:)` writes for `text` (every byte escaped as `\u00XX`, two quotes).
    public static func escapedCapacity(_ text: String) -> Int { text.utf8.count * 6 + 2 }

    /// The most bytes `number`'s value (the shortest round-tripping digits of a double) or `date` takes.
    public static let valueCapacity = 40

    /// Appends `text` as it is (keys, punctuation).
    public mutating func append(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    public mutating func write(_ string: String) {
        for character in string.utf8 { byte(character) }
    }

    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        for character in buffer { byte(character) }
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// `key` (with its comma and colon) and the number as `MeridianJSON`'s encoder writes it: rounded as the key
    /// says (`JSONRounding`), else `Double.description` without a trailing ".0" (100.0 → 100, 1e-05 stays 1e-05).
    /// Nothing when the value is unknown. The value must be finite (the encoder refuses others).
    public mutating func number(_ key: JSONKey, _ value: Double?) {
        guard let value else { return }
        append(key.text)
        if let decimals = key.decimals, let written = JSONRounding.write(value, decimals: decimals, to: base + count) {
            count += written
        } else {
            number(value)
        }
    }

    /// `number(_:_:)` with a key whose rounding is looked up now: for keys written once in a while (hot paths keep
    /// their `JSONKey`s in constants).
    public mutating func number(_ key: StaticString, _ value: Double?) {
        guard value != nil else { return }
        number(JSONKey(key), value)
    }

    /// `key` (with its comma and colon) and the quoted, escaped text; nothing when the text is absent.
    public mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        append(key)
        string(value)
    }

    /// `key` (with its comma and colon) and `true` or `false`; nothing when the value is absent.
    public mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        append(key)
        append(value ? "true" : "false")
    }

    /// `key` (with its comma and colon) and the date as `MeridianJSON` encodes it (a quoted `ISO8601`
    /// string); nothing when the date is absent.
    public mutating func date(_ key: StaticString, _ value: Date?) {
        guard let value else { return }
        append(key)
        byte(UInt8(ascii: "\""))
        count += ISO8601.write(value, to: base + count)
        byte(UInt8(ascii: "\""))
    }

    /// An object of the members `body` writes, each with its leading comma (`,"key":`): the first
    /// comma becomes the opening brace, so that optional members need no bookkeeping.
    public mutating func object(_ body: (inout JSONScratchWriter) -> Void) {
        let start = count
        body(&self)
        if count == start {
            append("{}")
            return
        }
        base[start] = UInt8(ascii: "{")
        append("}")
    }

    /// A finite number as JSONEncoder writes it (see `number(_:_:)`).
    public mutating func number(_ value: Double) {
        if shortDecimal(value) { return }
        let start = count
        value.write(to: &self)
        if count - start > 2, base[count - 2] == UInt8(ascii: "."), base[count - 1] == UInt8(ascii: "0") {
            count -= 2
        }
    }

    /// Writes `value` as `number` does when it is a decimal of at most 9 decimals and 15 significant
    /// digits below one million (the altitudes, tracks and accuracies receivers send, zero); returns
    /// `false`, writing nothing, for any other value, whose digits `Double.write` then finds.
    ///
    /// Exact: when the decimal `units / 10^9` reads back as `value`, it is the only decimal of at
    /// most 15 significant digits that does (doubles are denser than such decimals), so it is the
    /// shortest text for `value`, the one `description` prints, positionally from 0.0001 up to 2^53.
    private mutating func shortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.0001 || magnitude == 0 else { return false }
        let scaled = magnitude * 1e9
        guard scaled < 1e15 else { return false }
        // Rounded by truncating (one instruction, where `rounded()` calls libm); any guess is safe, the check decides.
        let units = UInt64(scaled + 0.5)
        guard Double(units) / 1e9 == magnitude else { return false }
        if value.sign == .minus { byte(UInt8(ascii: "-")) }
        unsigned(units / 1_000_000_000)
        var fraction = units % 1_000_000_000
        guard fraction != 0 else { return true }
        var width = 9
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        byte(UInt8(ascii: "."))
        unsigned(fraction, width: width)
        return true
    }

    public mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(UInt64(value.magnitude))
    }

    /// The decimal digits of `value`, zero-padded to `width`.
    private mutating func unsigned(_ value: UInt64, width: Int = 1) {
        count += NumberText.digits(value, width: width, into: base + count)
    }

    /// A JSON string with JSONEncoder's escapes (slashes unescaped, as `MeridianJSON` configures).
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { escape($0) }
    }

    /// Eight bytes at a time while none needs an escape (most text), then byte by byte through the word that does.
    /// The last bytes go as the text's final eight when the word before them was copied as it is: the bytes the two
    /// words share are written twice, the same both times.
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        var index = 0
        if let start = utf8.baseAddress {
            let source = UnsafeRawPointer(start)
            var copiedLastWord = false
            while index + 8 <= utf8.count {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                copiedLastWord = Self.bytesToEscape(word) == 0
                if copiedLastWord {
                    UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
                    count += 8
                } else {
                    for offset in index..<(index + 8) { escape(utf8[offset]) }
                }
                index += 8
            }
            let rest = utf8.count - index
            if copiedLastWord && rest > 0 {
                let word = source.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self)
                if Self.bytesToEscape(word) == 0 {
                    UnsafeMutableRawPointer(base + count + rest - 8).storeBytes(of: word, as: UInt64.self)
                    count += rest
                    index = utf8.count
                }
            }
        }
        for offset in index..<utf8.count { escape(utf8[offset]) }
        byte(UInt8(ascii: "\""))
    }

    /// Non-zero when a byte of `word` is a control byte, `"` or `\\` (UTF-8 lead and continuation bytes pass as they are);
    /// a zero answer is exact, a non-zero one may be spurious above a true match, which only sends the word the slow way.
    @inline(__always)
    private static func bytesToEscape(_ word: UInt64) -> UInt64 {
        ByteWord.control(word) | ByteWord.firstEqual(word, UInt8(ascii: "\"")) | ByteWord.firstEqual(word, 0x5C)
    }

    @inline(__always)
    private mutating func escape(_ character: UInt8) {
        switch character {
        case UInt8(ascii: "\""): append(#"\""#)
        case UInt8(ascii: "\\"): append(#"\\"#)
        case 0x08: append(#"\b"#)
        case 0x09: append(#"\t"#)
        case 0x0A: append(#"\n"#)
        case 0x0C: append(#"\f"#)
        case 0x0D: append(#"\r"#)
        case ..<0x20:
            append(#"\u00"#)
            byte(Self.hexDigit(character >> 4))
            byte(Self.hexDigit(character & 0x0F))
        default: byte(character)
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

/// A key of a hand-written JSON object as it is written (`,"lat":`, with its comma and colon) and how its numbers are
/// rounded (`JSONRounding`), worked out once.
public struct JSONKey: Sendable {
    public let text: StaticString
    public let decimals: Int?

    public init(_ text: StaticString) {
        self.text = text
        decimals = JSONRounding.decimals(forWrittenKey: text)
    }
}
