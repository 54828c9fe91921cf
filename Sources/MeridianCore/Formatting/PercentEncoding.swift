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

    /// The most bytes `encoded(text)` takes: three for every byte of `text`.
    public static func maximumCount(_ text: String) -> Int { text.utf8.count * 3 }

    /// Writes `encoded(text)`'s bytes at `output`, which has room for `maximumCount(text)`, and returns how many,
    /// for links written as bytes.
    public static func write(_ text: String, to output: UnsafeMutablePointer<UInt8>) -> Int {
        write(text, to: output) { isUnreserved($0) }
    }

    private static func encoded(_ text: String, keeping literal: (UInt8) -> Bool) -> String {
        guard !text.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: maximumCount(text)) { buffer in
            write(text, to: buffer.baseAddress!, keeping: literal)
        }
    }

    private static func write(_ text: String, to output: UnsafeMutablePointer<UInt8>, keeping literal: (UInt8) -> Bool)
        -> Int
    {
        var count = 0
        for byte in text.utf8 {
            if literal(byte) {
                output[count] = byte
                count += 1
            } else {
                output[count] = UInt8(ascii: "%")
                output[count + 1] = hexDigits[Int(byte >> 4)]
                output[count + 2] = hexDigits[Int(byte & 0x0F)]
                count += 3
            }
        }
        return count
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

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
