import Foundation

/// Meridian's JSON conventions: `snake_case` keys, ISO 8601 UTC dates with
/// milliseconds, no escaped slashes, numbers rounded to what they mean (`JSONRounding`).
public enum MeridianJSON {
    /// A new encoder with Meridian's settings.
    public static func makeEncoder(pretty: Bool = false) -> MeridianJSONEncoder {
        MeridianJSONEncoder(encoder: makeFoundationEncoder(pretty: pretty))
    }

    private static func makeFoundationEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(from: date))
        }
        encoder.outputFormatting =
            pretty ? [.withoutEscapingSlashes, .prettyPrinted, .sortedKeys] : [.withoutEscapingSlashes, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    /// A new decoder matching `makeEncoder()`.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 date-time such as 2024-05-01T07:30:00Z")
            }
            return date
        }
        return decoder
    }

    /// Encodes `value` as one line of JSON text.
    public static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try makeEncoder().encode(value), as: UTF8.self)
    }
}

/// Foundation's `JSONEncoder` with Meridian's settings, whose numbers are then rounded to what their keys say they
/// mean (`JSONRounding`).
public struct MeridianJSONEncoder {
    let encoder: JSONEncoder

    /// The JSON text of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        JSONRounding.roundNumbers(in: try encoder.encode(value))
    }
}
