/// A measurement that may be missing, stored in 8 bytes: NaN stands for `nil` (an `Optional<Double>` takes 16 in a
/// struct). For values held by the million (samples, track points); no reader keeps a NaN as a value, so none is
/// lost. Encoded exactly as the `Double?` it wraps: a missing value leaves its key out, and a missing key decodes
/// as `nil`.
@propertyWrapper
public struct Measured: Sendable, Equatable, Codable {
    private var stored: Double

    public init(wrappedValue: Double?) {
        stored = wrappedValue ?? .nan
    }

    public var wrappedValue: Double? {
        get { stored.isNaN ? nil : stored }
        set { stored = newValue ?? .nan }
    }

    public static func == (lhs: Measured, rhs: Measured) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// A `@Measured` property whose key is missing is `nil`, as a `Double?` property's would be.
    public func decode(_ type: Measured.Type, forKey key: Key) throws -> Measured {
        Measured(wrappedValue: try decodeIfPresent(Double.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// A `@Measured` property without a value leaves its key out, as a `Double?` property does.
    public mutating func encode(_ value: Measured, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
