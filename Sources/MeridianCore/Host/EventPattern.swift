/// Event name patterns, as `GET /v1/events?types=` and webhooks' `events` take them: an exact name (`flyer.enter`),
/// a prefix ending in `.*` (`run.*` matches `run.state`), or `*` for every event.
public enum EventPattern {
    /// True when `name` matches one of `patterns`.
    public static func matches(_ name: String, _ patterns: [String]) -> Bool {
        patterns.contains { pattern in
            pattern == "*" || (pattern.hasSuffix(".*") ? name.hasPrefix(pattern.dropLast(1)) : name == pattern)
        }
    }

    /// Why `pattern` is not a pattern (nil when it is one): letters, digits, `.`, `_` and `-`, with an optional
    /// `.*` at the end, or `*` alone.
    public static func problem(with pattern: String) -> String? {
        let stem = pattern.hasSuffix(".*") ? String(pattern.dropLast(2)) : pattern
        guard pattern != "*" else { return nil }
        guard !stem.isEmpty,
            stem.unicodeScalars.allSatisfy({
                ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0)
                    || ".-_".unicodeScalars.contains($0)
            })
        else {
            return
                "'\(pattern)' is not an event pattern; give a name such as flyer.enter, a prefix such as run.*, or * for all"
        }
        return nil
    }
}
