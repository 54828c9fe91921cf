/// A part of the saved engine state added after the first release: a run saved by an older version has no key for
/// it, and restores with the empty value instead of failing.
protocol AddedStatePart: Decodable {
    init()
}

extension KeyedDecodingContainer {
    /// Lets the key of an `AddedStatePart` be missing (synthesized `Decodable` calls this overload).
    func decode<Part: AddedStatePart>(_ type: Part.Type, forKey key: Key) throws -> Part {
        try decodeIfPresent(type, forKey: key) ?? Part()
    }
}
