import Foundation

/// Base64url without padding (RFC 4648 §5: `-` and `_` for `+` and `/`, no `=`): the opaque cursors of paged answers
/// and device keys.
public enum Base64URL {
    /// `text`'s UTF-8 bytes as base64url, written straight into the string (most answers carry a next-page cursor).
    public static func encoded(_ text: String) -> String {
        var text = text
        return text.withUTF8 { encoded($0) }
    }

    /// `bytes` as base64url (device keys).
    public static func encoded(bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encoded($0) }
    }

    private static func encoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let capacity = (bytes.count * 4 + 2) / 3
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { output in
            var count = 0
            func emit(_ group: UInt32, _ characters: Int) {
                for shift in stride(from: 18, to: 18 - 6 * characters, by: -6) {
                    output[count] = character(UInt8(truncatingIfNeeded: group >> UInt32(shift)) & 0x3F)
                    count += 1
                }
            }
            var index = 0
            while index + 3 <= bytes.count {
                emit(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]), 4)
                index += 3
            }
            switch bytes.count - index {
            case 1: emit(UInt32(bytes[index]) << 16, 2)
            case 2: emit(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, 3)
            default: break
            }
            return count
        }
    }

    /// The base64url character for six bits.
    private static func character(_ sextet: UInt8) -> UInt8 {
        switch sextet {
        case 0..<26: return UInt8(ascii: "A") + sextet
        case 26..<52: return UInt8(ascii: "a") + sextet - 26
        case 52..<62: return UInt8(ascii: "0") + sextet - 52
        case 62: return UInt8(ascii: "-")
        default: return UInt8(ascii: "_")
        }
    }

    /// The bytes of base64url `text` (padding optional; standard base64's `+` and `/` read too); nil when it is not.
    public static func decoded(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
