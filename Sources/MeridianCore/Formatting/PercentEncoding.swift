/// Strict percent-encoding for URL pieces built by Meridian (map links, page links).
public enum PercentEncoding {
    /// Percent-encodes UTF-8 `text`, leaving only RFC 3986 unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`) literal, so `+ & # % / ? ,`, spaces and non-ASCII are all encoded.
    public static func encoded(_ text: String) -> String {
        encoded(text) { isUnreserved($0) }
    }

    /// A path segment naming a resource id: like `encoded`, and the dot as well, so that an id ending in `.gpx`
    /// never reads as an export and `.` or `..` never as a relative path.
    public static func pathSegment(_ text: String) -> String {
        encoded(text) { $0 != UInt8(ascii: ".") && isUnreserved($0) }
    }

    private static func encoded(_ text: String, keeping literal: (UInt8) -> Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if literal(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
