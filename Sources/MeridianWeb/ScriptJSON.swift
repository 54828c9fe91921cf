/// JSON text for a `<script type="application/json">` data block: strings with `<`, `>`, `&` and the two
/// JavaScript line separators written as `\u` escapes, so that no text inside (a flyer titled `</script>`) can end
/// the block. Written by hand because maps carry thousands of numbers and Foundation's encoder is slow at them.
public enum ScriptJSON {
    /// A JSON string literal.
    public static func string(_ text: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// A JSON number: the shortest text that reads back as the same double; `null` for NaN and infinities.
    public static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// `{"key": value, …}` from already written values, in the order given, leaving out `nil`s.
    public static func object(_ members: [(String, String?)]) -> String {
        "{" + members.compactMap { key, value in value.map { "\(string(key)):\($0)" } }.joined(separator: ",") + "}"
    }
}
