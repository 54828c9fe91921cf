/// An optional that is encoded as JSON `null` when it has no value, instead of leaving its key out.
///
/// The run tracker's JSON rule: every key of an object is always present, and a value that is unknown or does not
/// apply is `null`. Synthesized `Encodable` omits `nil` optionals; properties marked `@NullWhenAbsent` keep their key.
/// Decoding accepts `null` and a missing key alike.
@propertyWrapper
package struct NullWhenAbsent<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// Lets a `@NullWhenAbsent` property's key be missing as well as `null` (synthesized `Decodable` calls this).
    package func decode<Value>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
