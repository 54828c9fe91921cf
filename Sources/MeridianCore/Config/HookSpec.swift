import Foundation

/// One webhook: where events go (`url`), which (`events`, `filter`), how they are signed (`secret`) and how long
/// they are retried. From a `hooks:` entry of the configuration, `meridian hooks add` or `POST /v1/hooks`.
/// A hook sends data off the machine: it is the user's explicit choice.
public struct HookSpec: Sendable, Codable, Equatable {
    /// A short name (letters, digits, `-`, `_`); from the URL and events when not given.
    public var id: String
    /// An `http://` or `https://` URL; private addresses are allowed (a home automation box is the usual target).
    public var url: String
    /// Event patterns (`EventPattern`): `flyer.enter`, `run.*`, `*`.
    public var events: [String]
    /// The key of the `X-Meridian-Signature` HMAC-SHA256 (at least 16 characters).
    public var secret: String
    /// Only events whose payload carries one of these values.
    public var filter: HookFilter?
    /// Seconds an event is retried before it moves to the dead-letter list.
    public var maxAge: Double
    /// Seconds one delivery may take (connecting, sending, the answer) before it counts as failed.
    public var timeout: Double
    /// Seconds before the first retry; each next one doubles (with jitter) up to `backoffMax`.
    public var backoff: Double
    /// The longest wait between two attempts, in seconds.
    public var backoffMax: Double
    /// For an `https://` URL: a PEM file of the certificate authority that signed the receiver's certificate (a home
    /// server's own CA, or its self-signed certificate); only it is trusted then. Without it, the system's CAs.
    public var caFile: String?

    public static let defaultMaxAge = 259_200.0
    public static let defaultTimeout = 10.0
    public static let defaultBackoff = 1.0
    public static let defaultBackoffMax = 600.0
    /// The fewest characters a secret may have.
    public static let minimumSecretLength = 16

    public init(
        id: String? = nil, url: String, events: [String], secret: String, filter: HookFilter? = nil,
        maxAge: Double = defaultMaxAge, timeout: Double = defaultTimeout, backoff: Double = defaultBackoff,
        backoffMax: Double = defaultBackoffMax, caFile: String? = nil
    ) {
        self.id = id ?? Self.defaultID(url: url, events: events)
        self.url = url
        self.events = events
        self.secret = secret
        self.filter = filter
        self.maxAge = maxAge
        self.timeout = timeout
        self.backoff = backoff
        self.backoffMax = backoffMax
        self.caFile = caFile
    }

    enum CodingKeys: String, CodingKey {
        case id, url, events, secret, filter, timeout, backoff
        case maxAge = "max_age"
        case backoffMax = "backoff_max"
        case caFile = "ca_file"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let url = try container.decode(String.self, forKey: .url)
        let events = try container.decode([String].self, forKey: .events)
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id), url: url, events: events,
            secret: try container.decode(String.self, forKey: .secret),
            filter: try container.decodeIfPresent(HookFilter.self, forKey: .filter),
            maxAge: try container.decodeIfPresent(Double.self, forKey: .maxAge) ?? Self.defaultMaxAge,
            timeout: try container.decodeIfPresent(Double.self, forKey: .timeout) ?? Self.defaultTimeout,
            backoff: try container.decodeIfPresent(Double.self, forKey: .backoff) ?? Self.defaultBackoff,
            backoffMax: try container.decodeIfPresent(Double.self, forKey: .backoffMax) ?? Self.defaultBackoffMax,
            caFile: try container.decodeIfPresent(String.self, forKey: .caFile))
    }

    /// An id from the URL and the events (FNV-1a, stable across runs), for entries that give none.
    static func defaultID(url: String, events: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (url + " " + events.joined(separator: ",")).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "hook-" + String(String(hash, radix: 16).suffix(8))
    }

    /// The first problem of this hook as (key, message), or nil when it can be used.
    public var problem: (key: String, message: String)? {
        if id.isEmpty || id.count > 64
            || !id.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        {
            return ("id", "'\(id)' is not a hook id; use up to 64 letters, digits, '-' or '_'")
        }
        if let problem = Self.problem(withURL: url) { return ("url", problem) }
        if events.isEmpty {
            return ("events", "name at least one event, such as flyer.enter, run.* or record.new (* for all)")
        }
        for pattern in events { if let problem = EventPattern.problem(with: pattern) { return ("events", problem) } }
        if secret.count < Self.minimumSecretLength {
            return (
                "secret",
                "the secret has \(secret.count) characters; use at least \(Self.minimumSecretLength), e.g. from `openssl rand -hex 24`"
            )
        }
        for (key, seconds, range) in [
            ("max_age", maxAge, 1...31_536_000.0), ("timeout", timeout, 0.1...300.0),
            ("backoff", backoff, 0.01...86_400.0), ("backoff_max", backoffMax, 0.01...86_400.0)
        ] where !(seconds.isFinite && range.contains(seconds)) {
            return (key, "\(seconds) is out of range; give seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        if backoffMax < backoff { return ("backoff_max", "must be at least backoff (\(backoff) s)") }
        if let caFile {
            guard url.lowercased().hasPrefix("https://") else {
                return ("ca_file", "is for https:// URLs; remove it or give the receiver's https:// URL")
            }
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                return (
                    "ca_file",
                    "cannot read '\(caFile)'; give the PEM file of the CA that signed the receiver's certificate"
                )
            }
        }
        if let filter, filter.isEmpty {
            return ("filter", "names nothing; give category, flyer_ids or device, or remove the filter")
        }
        return nil
    }

    /// Why `url` cannot be a hook's URL (nil when it can): only http and https, with a host.
    public static func problem(withURL url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return "'\(url)' is not a URL; give one such as http://192.168.1.20:8123/api/webhook/meridian"
        }
        guard scheme == "http" || scheme == "https" else {
            return "'\(scheme)' URLs are refused; a hook posts to an http:// or https:// URL"
        }
        guard let host = parsed.host, !host.isEmpty else { return "'\(url)' has no host; give http://HOST[:PORT]/PATH" }
        guard parsed.user == nil, parsed.password == nil else {
            return "'\(url)' holds a user name or password; the receiver checks the X-Meridian-Signature instead"
        }
        return nil
    }

    /// True when this hook takes the event `name` with `json` (its payload) by its events and filter.
    public func accepts(_ name: String, json: String) -> Bool {
        guard EventPattern.matches(name, events) else { return false }
        guard let filter else { return true }
        return filter.accepts(json: json)
    }

    /// The secret as lists show it: its first four characters and its length, never the whole.
    public var maskedSecret: String { "\(secret.prefix(4))… (\(secret.count) characters)" }
}

/// Which events of its types a hook takes, by what their payload carries: every key given must match.
public struct HookFilter: Sendable, Codable, Equatable {
    /// The flyer's `category`.
    public var category: [String]?
    /// The flyer's id (`flyer_id`).
    public var flyerIds: [String]?
    /// The device (`device`) the event names.
    public var device: [String]?

    public init(category: [String]? = nil, flyerIds: [String]? = nil, device: [String]? = nil) {
        self.category = category
        self.flyerIds = flyerIds
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case category, device
        case flyerIds = "flyer_ids"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func list(_ key: CodingKeys) throws -> [String]? {
            if let one = try? container.decodeIfPresent(String.self, forKey: key) { return [one] }
            return try container.decodeIfPresent([String].self, forKey: key)
        }
        category = try list(.category)
        flyerIds = try list(.flyerIds)
        device = try list(.device)
    }

    var isEmpty: Bool { [category, flyerIds, device].allSatisfy { ($0 ?? []).isEmpty } }

    /// True when the payload `json` carries a listed value under every key this filter gives (an event without
    /// the key does not pass).
    func accepts(json: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return false
        }
        for (field, values) in [("category", category), ("flyer_id", flyerIds), ("device", device)] {
            guard let values, !values.isEmpty else { continue }
            guard let value = object[field] as? String, values.contains(value) else { return false }
        }
        return true
    }
}
