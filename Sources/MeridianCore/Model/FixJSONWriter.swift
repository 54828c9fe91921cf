/// Writes a `Fix` as JSON straight into a byte buffer, producing exactly the text
/// `MeridianJSON` makes from a `FixRecord` (same keys, order, numbers and escapes)
/// at a fraction of the cost — for streaming millions of fixes (`meridian replay --json`).
public enum FixJSONWriter {
    /// Appends the JSON object for `fix` (no trailing newline) to `buffer`.
    /// `includeProvider` adds `provider` and `signal`, as `FixRecord(fix, includeProvider: true)` does.
    public static func append(_ fix: Fix, includeProvider: Bool = false, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"time":"#.utf8)
        appendString(ISO8601.string(from: fix.time), to: &buffer)
        appendNumber("lat", fix.coordinate?.latitude, to: &buffer)
        appendNumber("lon", fix.coordinate?.longitude, to: &buffer)
        appendNumber("alt_hae", fix.altitudeHAE, to: &buffer)
        appendNumber("alt_msl", fix.altitudeMSL, to: &buffer)
        appendNumber("speed", fix.speed, to: &buffer)
        appendNumber("track", fix.course, to: &buffer)
        buffer.append(contentsOf: #","mode":"#.utf8)
        appendInteger(fix.mode.rawValue, to: &buffer)
        if let quality = fix.quality {
            buffer.append(contentsOf: #","quality":"#.utf8)
            appendString(quality.rawValue, to: &buffer)
        }
        appendNumber("eph", fix.horizontalAccuracy, to: &buffer)
        appendNumber("epv", fix.verticalAccuracy, to: &buffer)
        if let satellites = fix.satellitesUsed {
            buffer.append(contentsOf: #","satellites_used":"#.utf8)
            appendInteger(satellites, to: &buffer)
        }
        if includeProvider {
            buffer.append(contentsOf: #","provider":"#.utf8)
            appendString(fix.providerID, to: &buffer)
            if let signal = fix.signalQuality {
                buffer.append(contentsOf: #","signal":"#.utf8)
                appendString(signal.rawValue, to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// The JSON object for `fix` as a string.
    public static func string(_ fix: Fix, includeProvider: Bool = false) -> String {
        var buffer: [UInt8] = []
        append(fix, includeProvider: includeProvider, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func appendNumber(_ key: StaticString, _ value: Double?, to buffer: inout [UInt8]) {
        guard let value else { return }
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: "\""))
        buffer.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
        // JSONEncoder writes Double.description without a trailing ".0" (100.0 → 100, 1e-05 stays 1e-05).
        var text = value.description
        text.withUTF8 { bytes in
            if bytes.count > 2, bytes[bytes.count - 2] == UInt8(ascii: "."), bytes[bytes.count - 1] == UInt8(ascii: "0") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<(bytes.count - 2)]))
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
    }

    private static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        var text = String(value)
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// A JSON string with JSONEncoder's escapes (slashes unescaped, as `MeridianJSON` configures).
    private static func appendString(_ value: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): buffer.append(contentsOf: #"\\"#.utf8)
            case 0x08: buffer.append(contentsOf: #"\b"#.utf8)
            case 0x09: buffer.append(contentsOf: #"\t"#.utf8)
            case 0x0A: buffer.append(contentsOf: #"\n"#.utf8)
            case 0x0C: buffer.append(contentsOf: #"\f"#.utf8)
            case 0x0D: buffer.append(contentsOf: #"\r"#.utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: #"\u00"#.utf8)
                buffer.append(hex[Int(byte >> 4)])
                buffer.append(hex[Int(byte & 0x0F)])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
