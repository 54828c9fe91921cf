import Foundation
import Yams

/// Decodes `Decodable` types from a Yams node tree with configuration-grade errors:
/// each error names the file, line and key path, and keys that the target type
/// does not know are rejected (a typo must not be silently ignored).
public struct YAMLNodeDecoder {
    public var file: String?

    public init(file: String? = nil) {
        self.file = file
    }

    /// Decodes `type` from `node`, whose position in the document is `path`.
    public func decode<T: Decodable>(_ type: T.Type, from node: Node, path: [any CodingKey] = []) throws(ConfigError)
        -> T
    {
        let tracker = KeyUsageTracker()
        let decoder = NodeDecoder(node: node, codingPath: path, file: file, tracker: tracker)
        let value: T
        do {
            value = try decoder.decodeValue(T.self)
        } catch let error as ConfigError {
            throw error
        } catch let error as DecodingError {
            throw decoder.configError(from: error)
        } catch {
            throw ConfigError(file: file, line: node.mark?.line, path: KeyPath.render(path), message: "\(error)")
        }
        if let unknown = tracker.firstUnknownKey() {
            throw ConfigError(file: file, line: unknown.line, path: unknown.path, message: unknown.message)
        }
        return value
    }

    /// Parses YAML text into a node tree, turning syntax errors into `ConfigError`s.
    public func compose(_ text: String) throws(ConfigError) -> Node {
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigError(
                    file: file, path: "", message: "the file is empty; see Config/meridian.yaml for a complete example")
            }
            return node
        } catch let error as ConfigError {
            throw error
        } catch let error as YamlError {
            throw ConfigError(
                file: file, line: Self.line(of: error), path: "", message: "not valid YAML: \(Self.problem(of: error))")
        } catch {
            throw ConfigError(file: file, path: "", message: "not valid YAML: \(error)")
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        case .duplicatedKeysInMapping(_, let context): return context.mark.line
        default: return nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            return [context?.text, problem].compactMap { $0 }.joined(separator: " ")
        case .duplicatedKeysInMapping(let duplicates, _):
            return "duplicated key \(duplicates.joined(separator: ", "))"
        default:
            return "\(error)"
        }
    }
}

/// Renders coding paths as `providers[0].baud`.
enum KeyPath {
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.isEmpty || key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}

/// An integer key for sequence elements.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A plain string key.
struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Remembers which keys of each mapping a type asked for, to report the rest.
final class KeyUsageTracker {
    struct Unknown {
        var line: Int?
        var path: String
        var message: String
    }

    private struct Record {
        var path: [any CodingKey]
        var keys: [(name: String, line: Int?)]
        var used: Set<String>
    }

    private var records: [Record] = []

    func register(path: [any CodingKey], keys: [(name: String, line: Int?)]) -> Int {
        records.append(Record(path: path, keys: keys, used: []))
        return records.count - 1
    }

    func markUsed(_ key: String, in record: Int) {
        records[record].used.insert(key)
    }

    func firstUnknownKey() -> Unknown? {
        for record in records {
            for key in record.keys where !record.used.contains(key.name) {
                let known = record.used.sorted()
                var message = "unknown key '\(key.name)'"
                if let suggestion = Suggestion.closest(to: key.name, in: known) {
                    message += "; did you mean '\(suggestion)'?"
                } else if !known.isEmpty {
                    message += "; expected one of: \(known.joined(separator: ", "))"
                }
                let path = KeyPath.render(record.path + [NameKey(key.name)])
                return Unknown(line: key.line, path: path, message: message)
            }
        }
        return nil
    }
}
