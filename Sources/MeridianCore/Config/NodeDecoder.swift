import Foundation
import Yams

/// The `Decoder` behind `YAMLNodeDecoder`: one instance per node.
struct NodeDecoder: Decoder {
    let node: Node
    let codingPath: [any CodingKey]
    let file: String?
    let tracker: KeyUsageTracker
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = node else {
            throw mismatch(expected: "a mapping of keys to values")
        }
        var entries: [String: Node] = [:]
        var keys: [(name: String, line: Int?)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                throw error("keys must be plain names", line: key.mark?.line)
            }
            entries[scalar.string] = value
            keys.append((scalar.string, key.mark?.line))
        }
        let record = tracker.register(path: codingPath, keys: keys)
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, entries: entries, record: record))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let sequence) = node else { throw mismatch(expected: "a list") }
        return UnkeyedContainer(decoder: self, elements: Array(sequence))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    func child(_ node: Node, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], file: file, tracker: tracker)
    }

    var isNull: Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    // MARK: Values

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let scalar: Any?
        if let enumType = T.self as? any ConfigEnum.Type {
            scalar = try decodeEnum(enumType)
        } else {
            switch type {
            case is String.Type: scalar = try scalarString()
            case is Bool.Type: scalar = try decodeBool()
            case is Int.Type: scalar = try decodeInteger()
            case is Double.Type: scalar = try decodeDouble()
            default: scalar = nil
            }
        }
        if let value = scalar as? T { return value }
        return try T(from: self)
    }

    private func decodeEnum<E: ConfigEnum>(_ type: E.Type) throws -> E {
        let text = try scalarString()
        guard let value = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw error("'\(text)' is not allowed; expected one of: \(allowed)")
        }
        return value
    }

    func scalarString() throws -> String {
        guard case .scalar(let scalar) = node else { throw mismatch(expected: "a single value") }
        return scalar.string
    }

    func decodeBool() throws -> Bool {
        let text = try scalarString()
        switch text {
        case "true", "True", "TRUE", "yes", "on": return true
        case "false", "False", "FALSE", "no", "off": return false
        default: throw error("expected true or false, found '\(text)'")
        }
    }

    func decodeInteger() throws -> Int {
        let text = try scalarString()
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw error("expected a whole number, found '\(text)'")
        }
        return value
    }

    func decodeDouble() throws -> Double {
        let text = try scalarString()
        guard let value = Double(text.replacingOccurrences(of: "_", with: "")), value.isFinite else {
            throw error("expected a number, found '\(text)'")
        }
        return value
    }

    // MARK: Errors

    func error(_ message: String, line: Int? = nil) -> ConfigError {
        ConfigError(file: file, line: line ?? node.mark?.line, path: KeyPath.render(codingPath), message: message)
    }

    func mismatch(expected: String) -> ConfigError {
        let found: String
        switch node {
        case .scalar(let scalar): found = "'\(scalar.string)'"
        case .mapping: found = "a mapping"
        case .sequence: found = "a list"
        case .alias: found = "an alias"
        }
        return error("expected \(expected), found \(found)")
    }

    /// Translates errors thrown by custom `init(from:)` implementations.
    func configError(from decodingError: DecodingError) -> ConfigError {
        switch decodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return ConfigError(
                file: file, line: node.mark?.line, path: KeyPath.render(context.codingPath),
                message: context.debugDescription)
        case .keyNotFound(let key, let context):
            return ConfigError(
                file: file, line: node.mark?.line, path: KeyPath.render(context.codingPath),
                message: "missing required key '\(key.stringValue)'")
        @unknown default:
            return error("\(decodingError)")
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let entries: [String: Node]
    let record: Int

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        decoder.tracker.markUsed(key.stringValue, in: record)
        return entries[key.stringValue] != nil
    }

    private func node(for key: Key) throws -> NodeDecoder {
        decoder.tracker.markUsed(key.stringValue, in: record)
        guard let node = entries[key.stringValue] else {
            throw decoder.error("missing required key '\(key.stringValue)'")
        }
        return decoder.child(node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.tracker.markUsed(key.stringValue, in: record)
        guard let node = entries[key.stringValue] else { return true }
        return decoder.child(node, key: key).isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try node(for: key).decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        decoder.tracker.markUsed(key.stringValue, in: record)
        guard let node = entries[key.stringValue] else { return nil }
        let child = decoder.child(node, key: key)
        return child.isNull ? nil : try child.decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try node(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try node(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try node(for: key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let elements: [Node]
    var currentIndex = 0

    init(decoder: NodeDecoder, elements: [Node]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw decoder.error("the list has fewer elements than expected") }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return true }
        if decoder.child(elements[currentIndex], key: IndexKey(currentIndex)).isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.scalarString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger() }
    func decode(_ type: Int8.Type) throws -> Int8 { try narrow(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try narrow(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try narrow(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try narrow(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try narrow(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try narrow(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }

    private func narrow<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let value = try decoder.decodeInteger()
        guard let narrowed = I(exactly: value) else {
            throw decoder.error("\(value) is out of range (\(I.min)...\(I.max))")
        }
        return narrowed
    }
}
