import Foundation
import MeridianCore

/// The file formats `replay` and `TrackFileReader` understand.
public enum TrackFormat: String, Sendable, CaseIterable, ConfigEnum {
    /// Detect from the first non-blank byte: `<` GPX, `{` gpsd JSON, anything else NMEA.
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

    /// The format the first non-blank, non-comment byte of `prefix` shows; nil when `prefix`
    /// holds only a byte order mark, blank space or `#` comment lines.
    static func detected(prefix: some Collection<UInt8>) -> TrackFormat? {
        var bytes = Array(prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // UTF-8 byte order mark
        // Skip blank space and gpsd-style `#` comment lines.
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            case UInt8(ascii: "<"): return .gpx
            case UInt8(ascii: "{"): return .gpsd
            default: return .nmea
            }
        }
        return nil
    }
}
