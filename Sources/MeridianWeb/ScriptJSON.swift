import Foundation
import MeridianCore

/// JSON for a `<script type="application/json">` data block: `<`, `>`, `&` and the two JavaScript line
/// separators are written as `\u` escapes, so no text inside (a flyer titled `</script>`) can end the block.
public enum ScriptJSON {
    public static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let text = String(decoding: try MeridianJSON.makeEncoder().encode(value), as: UTF8.self)
        var safe = ""
        safe.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            case "\u{2028}": safe += "\\u2028"
            case "\u{2029}": safe += "\\u2029"
            default: safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }
}
