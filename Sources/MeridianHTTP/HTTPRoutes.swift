import Hummingbird
import HummingbirdCore
import MeridianCore

/// Implemented by plugins that serve HTTP. The server calls `addRoutes(to:)` with
/// the `/v1` group; a plugin adds its paths under its own prefix (`flyers/...`, `runs/...`).
public protocol HTTPRoutes: Sendable {
    func addRoutes(to v1: RouterGroup<MeridianRequestContext>)
    /// Path prefixes (`/v1/feeds/`) that answer without the admin token because the routes check a credential of
    /// their own; empty for most plugins.
    var publicPathPrefixes: [String] { get }
}

extension HTTPRoutes {
    public var publicPathPrefixes: [String] { [] }
}

extension Request {
    /// Refuses query parameters the route does not take and parameters given more than once,
    /// with a 400 `invalid_parameter` naming the parameter (and the ones the route takes).
    public func allowQuery(_ names: Set<String>) throws(APIError) {
        try QueryParameters(self).allow(names)
    }

    /// The query parameter `name`, if present and not empty.
    public func query(_ name: String) -> String? {
        QueryParameters(self).string(name)
    }

    /// A comma-separated list parameter: the raw value is split at its literal commas and each item is
    /// percent-decoded after, so that an item holding a comma gives it encoded (`%2C`). Nil when absent;
    /// an item that is not valid percent-encoding is a 400 naming the parameter.
    public func listQuery(_ name: String) throws(APIError) -> [String]? {
        guard let query = uri.query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { continue }
            var items: [String] = []
            for raw in (parts.count > 1 ? parts[1] : "").split(separator: ",") {
                guard let item = String(raw).removingPercentEncoding else {
                    throw APIError.badRequest(
                        "query parameter '\(name)' has an item that is not valid percent-encoding: '\(raw)'")
                }
                items.append(item)
            }
            return items
        }
        return nil
    }

    /// A numeric query parameter; a present but invalid value is a 400 naming the parameter.
    public func doubleQuery(_ name: String) throws -> Double? {
        try QueryParameters(self).double(name)
    }

    /// An integer query parameter within `range`; anything else is a 400 naming the parameter.
    public func intQuery(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        try QueryParameters(self).int(name, in: range)
    }
}

/// A request's query parameters, parsed once: Hummingbird parses `uri.queryParameters` again at every
/// access, so a route that reads several parameters takes them from one of these.
public struct QueryParameters {
    /// The pairs in the order given, as Hummingbird reads them (keys as sent, values percent-decoded), as strings: a
    /// short one is stored inline and compares with a route's name without the generic comparison a substring takes.
    private let parameters: [(key: String, value: String)]

    public init(_ request: Request) {
        parameters = Self.pairs(request.uri)
    }

    /// `uri`'s query pairs exactly as `URI.queryParameters` gives them. Without an escape (`%`, most queries) they are
    /// split here, at the bytes, with nothing to decode and no hashing of keys (which Hummingbird does for every pair
    /// and every lookup); with one, Hummingbird's own parser decodes them. Pieces between `&` are pairs, an empty one
    /// included, except an empty last one; a piece without `=` is a key with an empty value.
    static func pairs(_ uri: URI) -> [(key: String, value: String)] {
        guard var query = uri.query else { return [] }
        return query.withUTF8 { bytes in
            guard !bytes.contains(UInt8(ascii: "%")) else {
                return uri.queryParameters.map { (String($0.key), String($0.value)) }
            }
            func text(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var pairs: [(key: String, value: String)] = []
            var start = 0, equals: Int?
            func add(until end: Int) {
                pairs.append(equals.map { (text(start..<$0), text(($0 + 1)..<end)) } ?? (text(start..<end), ""))
            }
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "&"):
                    add(until: index)
                    start = index + 1
                    equals = nil
                case UInt8(ascii: "=") where equals == nil:
                    equals = index
                default:
                    break
                }
            }
            if start != bytes.count { add(until: bytes.count) }
            return pairs
        }
    }

    /// Refuses query parameters the route does not take and parameters given more than once,
    /// with a 400 `invalid_parameter` naming the parameter (and the ones the route takes).
    /// A request's few parameters are compared with one another; past `pairwiseLimit` a set finds repeats.
    public func allow(_ names: Set<String>) throws(APIError) {
        var seen: Set<String> = []
        for (index, (key, _)) in parameters.enumerated() {
            guard names.contains(key) else {
                let accepted =
                    names.isEmpty
                    ? "this route takes none" : "this route takes \(names.sorted().joined(separator: ", "))"
                throw APIError.badRequest("unknown query parameter '\(key)'; \(accepted)")
            }
            let repeated =
                parameters.count <= Self.pairwiseLimit
                ? parameters.prefix(index).contains { $0.key == key } : !seen.insert(key).inserted
            guard !repeated else {
                throw APIError.badRequest("query parameter '\(key)' is given more than once; give it once")
            }
        }
    }

    private static let pairwiseLimit = 16

    /// The query parameter `name`, if present and not empty.
    public func string(_ name: String) -> String? {
        guard let value = parameters.first(where: { $0.key == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// A numeric query parameter; a present but invalid value is a 400 naming the parameter.
    public func double(_ name: String) throws(APIError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw APIError.badRequest("query parameter '\(name)' must be a number, got '\(text)'")
        }
        return value
    }

    /// An integer query parameter within `range`; anything else is a 400 naming the parameter.
    public func int(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "query parameter '\(name)' must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'"
            )
        }
        return value
    }
}
