/// Writes a `Fix` as JSON straight into a byte buffer, producing exactly the text
/// `MeridianJSON` makes from a `FixRecord` (same keys, order, numbers and escapes)
/// at a fraction of the cost — for streaming millions of fixes (`meridian replay --json`).
///
/// The object is composed in a scratch buffer on the stack and appended to the
/// output in one copy; numbers and the time are written as bytes, never as `String`s,
/// and short decimals (altitudes, tracks, accuracies) without the general shortest-digits search.
public enum FixJSONWriter {
    /// Appends the JSON object for `fix` (no trailing newline) to `buffer`.
    /// `includeProvider` adds `provider` and `signal`, as `FixRecord(fix, includeProvider: true)` does.
    public static func append(_ fix: Fix, includeProvider: Bool = false, to buffer: inout [UInt8]) {
        let capacity = fixedPartCapacity + (includeProvider ? ScratchWriter.escapedCapacity(fix.providerID) : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var out = ScratchWriter(base: scratch.baseAddress!)
            out.append(#"{"time":""#)
            out.count += ISO8601.write(fix.time, to: out.base + out.count)
            out.append("\"")
            out.number(#","lat":"#, fix.coordinate?.latitude)
            out.number(#","lon":"#, fix.coordinate?.longitude)
            out.number(#","alt_hae":"#, fix.altitudeHAE)
            out.number(#","alt_msl":"#, fix.altitudeMSL)
            out.number(#","speed":"#, fix.speed)
            out.number(#","track":"#, fix.course)
            out.append(#","mode":"#)
            out.integer(fix.mode.rawValue)
            if let quality = fix.quality {
                out.append(#","quality":"#)
                out.string(quality.rawValue)
            }
            out.number(#","eph":"#, fix.horizontalAccuracy)
            out.number(#","epv":"#, fix.verticalAccuracy)
            if let satellites = fix.satellitesUsed {
                out.append(#","satellites_used":"#)
                out.integer(satellites)
            }
            if includeProvider {
                out.append(#","provider":"#)
                out.string(fix.providerID)
                if let signal = fix.signalQuality {
                    out.append(#","signal":"#)
                    out.string(signal.rawValue)
                }
            }
            out.append("}")
            buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: out.count))
        }
    }

    /// The JSON object for `fix` as a string.
    public static func string(_ fix: Fix, includeProvider: Bool = false) -> String {
        var buffer: [UInt8] = []
        append(fix, includeProvider: includeProvider, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Room for everything but the provider id: the time, eight numbers of at most 24 characters with
    /// their keys, the mode, the longest quality, an integer of 20 characters, the signal.
    private static let fixedPartCapacity = 512
}

/// Text written into a scratch buffer that has room for all of it.
///
/// A `TextOutputStream` so that `Double.write(to:)` hands over its digits through `_writeASCII`
/// as bytes, without making a `String` (the digits are the same as `Double.description`'s).
private struct ScratchWriter: TextOutputStream {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// The most bytes `string(_:)` writes for `text` (every byte escaped as `\u00XX`, two quotes).
    static func escapedCapacity(_ text: String) -> Int { text.utf8.count * 6 + 2 }

    mutating func append(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    mutating func write(_ string: String) {
        for character in string.utf8 { byte(character) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        for character in buffer { byte(character) }
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// `key` (with its comma and colon) and the number as JSONEncoder writes it: `Double.description`
    /// without a trailing ".0" (100.0 → 100, 1e-05 stays 1e-05). Nothing when the value is unknown.
    mutating func number(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        append(key)
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

    mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(UInt64(value.magnitude))
    }

    /// The decimal digits of `value`, zero-padded to `width`.
    private mutating func unsigned(_ value: UInt64, width: Int = 1) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            rest /= 10
            digits += 1
        }
        digits = max(digits, width)
        rest = value
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            base[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        }
        count += digits
    }

    /// A JSON string with JSONEncoder's escapes (slashes unescaped, as `MeridianJSON` configures).
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { escape($0) }
    }

    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        for character in utf8 {
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
        byte(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
