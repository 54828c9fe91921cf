/// Why one line from gpsd could not be used.
public enum GPSDDecodeError: Error, Equatable, CustomStringConvertible {
    /// The line is not a JSON object with a `class` key, or a known key has the wrong type.
    case malformedJSON(excerpt: String, reason: String)
    /// gpsd speaks a protocol revision this client does not understand.
    case unsupportedProtocol(major: Int, minor: Int?, release: String?)

    public var description: String {
        switch self {
        case .malformedJSON(let excerpt, let reason):
            return "malformed gpsd JSON line '\(excerpt)': \(reason)"
        case .unsupportedProtocol(let major, let minor, let release):
            let revision = minor.map { "\(major).\($0)" } ?? "\(major)"
            let daemon = release.map { "gpsd \($0)" } ?? "gpsd"
            return "\(daemon) speaks JSON protocol \(revision); Meridian understands protocol 3 (gpsd 3.x) and 16; "
                + "install a gpsd from the 3.x series"
        }
    }

    /// The first 80 characters of a line, for error messages.
    static func excerpt(of bytes: some Collection<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        return bytes.count > 80 ? text + "…" : text
    }

    /// A short, readable reason for a `DecodingError`.
    static func reason(for error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the line" : "key '\(keys.joined(separator: "."))'"
        }
        switch decodingError {
        case .keyNotFound(let key, _):
            return "key '\(key.stringValue)' is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context)) is not a \(type)"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError { return "not valid JSON (\(underlying.localizedDescription))" }
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(decodingError)"
        }
    }
}
