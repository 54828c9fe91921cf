import Foundation

/// Recognises GeoJSON, which Meridian exports for maps but cannot import, from a file's first bytes, so that reading
/// one says so instead of trying it as a gpsd JSON log.
enum GeoJSONPrefix {
    /// What reading a GeoJSON file says.
    static let refusal = """
        this is GeoJSON, which Meridian exports for maps but cannot import; import the activity as FIT, TCX, GPX, \
        NMEA or gpsd JSON (to move a run between Meridians, export it as GPX or TCX)
        """

    /// True when `prefix` is a JSON object (its first non-blank byte `{`) with `"type": "Feature"` or
    /// `"type": "FeatureCollection"`, which no gpsd report holds.
    static func matches(_ prefix: some Collection<UInt8>) -> Bool {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var bytes = prefix.filter { !blank.contains($0) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // UTF-8 byte order mark
        guard bytes.first == UInt8(ascii: "{") else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains(#""type":"Feature""#) || text.contains(#""type":"FeatureCollection""#)
    }
}
