import Foundation
import MeridianCore

/// The file formats `replay` and `TrackFileReader` understand.
public enum TrackFormat: String, Sendable, CaseIterable, ConfigEnum {
    /// Detect from the first 4 KiB: `<` GPX, else the format most lines have (`{` gpsd JSON, else NMEA).
    case auto
    /// NMEA 0183 log (`.nmea`, `.log`).
    case nmea
    /// GPX 1.0 or 1.1 (`trkpt` and `rtept`).
    case gpx
    /// gpsd JSON lines, as written by `gpspipe -w`.
    case gpsd

    /// The concrete format of a file whose first bytes are `prefix` (for `.auto`; others return themselves).
    public func resolved(prefix: some Collection<UInt8>) -> TrackFormat {
        guard self == .auto else { return self }
        return Self.detected(prefix: prefix) ?? .nmea
    }

    /// The format `prefix` shows: GPX when its first non-blank, non-comment byte is `<`, else the receiver log
    /// format most of its lines have (`$`/`!` NMEA sentences or `{` gpsd JSON reports); `#` comment lines and
    /// blank space are skipped. `nil` when `prefix` holds only a byte order mark, blank space or comments.
    static func detected(prefix: some Collection<UInt8>) -> TrackFormat? {
        var bytes = Array(prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // UTF-8 byte order mark
        if let first = bytes.first(where: { !Self.isBlank($0) }), first == UInt8(ascii: "<") { return .gpx }
        return logFormat(prefix: bytes)
    }

    /// The receiver log format most lines of `prefix` have, or nil when no line shows one; `<` (XML) is none.
    /// Anything else with content (binary noise before a receiver's first sentence) counts as NMEA.
    static func logFormat(prefix: some Collection<UInt8>) -> TrackFormat? {
        var nmea = 0
        var json = 0
        var other = 0
        var atLineStart = true
        for byte in prefix {
            if byte == 0x0A {
                atLineStart = true
                continue
            }
            guard atLineStart, !isBlank(byte) else { continue }
            atLineStart = false
            switch byte {
            case UInt8(ascii: "$"), UInt8(ascii: "!"): nmea += 1
            case UInt8(ascii: "{"): json += 1
            case UInt8(ascii: "#"): break
            case UInt8(ascii: "<"): return nil
            default: other += 1
            }
        }
        if json > nmea { return .gpsd }
        return nmea + other > 0 ? .nmea : nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
