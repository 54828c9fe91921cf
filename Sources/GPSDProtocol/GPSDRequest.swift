/// One client request of gpsd's JSON protocol.
public enum GPSDRequest: Equatable, Sendable {
    /// `?WATCH;` (nil) or `?WATCH={…};` with its JSON object.
    case watch(json: Substring?)
    /// `?DEVICE;` (nil) or `?DEVICE={…};`.
    case device(json: Substring?)
    case devices
    case poll
    case version
    /// Anything else; `message` is gpsd's `ERROR` text for it.
    case unrecognized(message: String)

    /// gpsd reads at most this many bytes of requests at once (`BUFSIZ - 1`); Meridian refuses a longer one.
    public static let maximumLength = 8191

    /// The requests in `text` (what one read brought), split as gpsd's `handle_gpsd_request` splits them: text that does
    /// not start with `?` is ignored; requests follow each other, whitespace between them is skipped, and the first
    /// one gpsd does not know takes the rest of the text with it.
    public static func parse(_ text: Substring) -> [GPSDRequest] {
        guard text.first == "?" else { return [] }
        var requests: [GPSDRequest] = []
        var rest = text
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            let (request, remainder) = next(in: rest)
            requests.append(request)
            rest = remainder
        }
        return requests
    }

    private static func next(in text: Substring) -> (GPSDRequest, Substring) {
        for (word, request) in [("?DEVICES;", GPSDRequest.devices), ("?POLL;", .poll), ("?VERSION;", .version)]
        where text.hasPrefix(word) {
            return (request, text.dropFirst(word.count))
        }
        for (word, make) in [("?WATCH", GPSDRequest.watch), ("?DEVICE", GPSDRequest.device)] where text.hasPrefix(word)
        {
            let after = text.dropFirst(word.count)
            if after.first == ";" { return (make(nil), after.dropFirst()) }
            if after.first == "=" {
                let (json, remainder) = object(at: after.dropFirst())
                return (make(json), remainder.first == ";" ? remainder.dropFirst() : remainder)
            }
        }
        return (.unrecognized(message: "Unrecognized request '\(unrecognizedExcerpt(text))'"), text[text.endIndex...])
    }

    /// The JSON object at the start of `text` (up to its closing brace, strings respected) and what follows it; all
    /// of `text` when the object does not close.
    private static func object(at text: Substring) -> (Substring, Substring) {
        var depth = 0
        var inString = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 {
                    let end = text.index(after: index)
                    return (text[..<end], text[end...])
                }
            default: if depth == 0 { return (text[..<index], text[index...]) }
            }
        }
        return (text, text[text.endIndex...])
    }

    /// What gpsd quotes of a request it does not know: the text without trailing whitespace and without its last
    /// character (gpsd's own arithmetic, which drops the closing `;`).
    private static func unrecognizedExcerpt(_ text: Substring) -> Substring {
        var trimmed = text
        while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
        return trimmed.dropLast()
    }
}
