import Foundation
import Yams

/// The whole configuration file.
public struct MeridianConfig: Sendable {
    /// HTTP API settings.
    public var http: HTTPSettings
    /// Where the SpatiaLite database lives.
    public var store: StoreSettings
    /// How the browser pages draw maps.
    public var web: WebSettings
    /// Units for everything shown to people.
    public var units: UnitSystem
    /// The time zone for everything shown to people and for calendar periods (weeks, months); the system's by default.
    public var timeZone: TimeZone
    /// Log level: trace, debug, info, notice, warning, error, critical.
    public var logLevel: String
    /// Location providers, in file order.
    public var providers: [PluginSpec]
    /// Consumers, in file order.
    public var consumers: [PluginSpec]
    /// Webhooks (`hooks:`), each the user's choice to send events off the machine.
    public var hooks: [HookSpec]
    /// The file this configuration was read from, if any.
    public var file: String?

    public init(
        http: HTTPSettings = .init(), store: StoreSettings = .init(), web: WebSettings = .init(),
        units: UnitSystem = .metric, timeZone: TimeZone = .current, logLevel: String = "info",
        providers: [PluginSpec] = [], consumers: [PluginSpec] = [], hooks: [HookSpec] = [], file: String? = nil
    ) {
        self.http = http
        self.store = store
        self.web = web
        self.units = units
        self.timeZone = timeZone
        self.logLevel = logLevel
        self.providers = providers
        self.consumers = consumers
        self.hooks = hooks
        self.file = file
    }
}

/// `store:` section.
public struct StoreSettings: Sendable, Decodable, Equatable {
    /// SQLite file path. In a configuration file a relative path (and the default) starts at the file's folder;
    /// without a file (`MERIDIAN_DB`, `--db`, no configuration) at the working directory.
    public var path: String = "data/meridian.sqlite"
    /// Seconds a write waits while another process writes (a long import) before answering busy.
    public var busyTimeout: Double = 30

    public init(path: String = "data/meridian.sqlite", busyTimeout: Double = 30) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    enum CodingKeys: String, CodingKey {
        case path
        case busyTimeout = "busy_timeout"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decodeIfPresent(String.self, forKey: .path) ?? path
        busyTimeout = try container.decodeIfPresent(Double.self, forKey: .busyTimeout) ?? busyTimeout
        guard busyTimeout.isFinite, busyTimeout >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .busyTimeout, in: container, debugDescription: "must be 0 or more seconds")
        }
    }
}

/// One entry of `providers:` or `consumers:`: the host's keys plus the plugin's own options.
public struct PluginSpec: Sendable {
    /// Unique id (defaults to the type for consumers).
    public var id: String
    /// Registered plugin type, e.g. `nmea-serial`.
    public var type: String
    /// Providers only: higher wins when several have fresh fixes.
    public var priority: Int
    /// Providers only: seconds without a fix after which the provider counts as stale.
    public var staleAfter: Double
    /// The remaining keys, decoded by the plugin itself.
    public var options: PluginOptions
    /// 1-based line of the entry.
    public var line: Int?
}

/// A plugin's own options: the keys of its configuration entry that the host does not use.
///
/// Holds an immutable parsed YAML tree, which is safe to share between tasks.
public struct PluginOptions: @unchecked Sendable {
    let node: Node
    let path: [any CodingKey]
    /// The configuration file, for error messages.
    public let file: String?

    init(node: Node, path: [any CodingKey], file: String?) {
        self.node = node
        self.path = path
        self.file = file
    }

    /// Options from YAML text, for tests and tools (`path` prefixes error key paths).
    public init(yaml: String, path: String = "options", file: String? = nil) throws(ConfigError) {
        let decoder = YAMLNodeDecoder(file: file)
        let trimmed = yaml.trimmingCharacters(in: .whitespacesAndNewlines)
        node = trimmed.isEmpty ? Node.mapping(Node.Mapping([])) : try decoder.compose(yaml)
        self.path = path.isEmpty ? [] : [NameKey(path)]
        self.file = file
    }

    /// A file path given in these options, resolved like every path of the configuration: relative to the
    /// configuration file's folder (see `ConfigLoader.resolve(_:relativeTo:)`).
    public func path(_ value: String) -> String {
        ConfigLoader.resolve(value, relativeTo: file)
    }

    /// Decodes the options into the plugin's typed options; unknown keys are errors.
    public func decode<T: Decodable>(_ type: T.Type) throws(ConfigError) -> T {
        try YAMLNodeDecoder(file: file).decode(type, from: node, path: path)
    }

    /// An error about option `key`, located at that key's line.
    public func error(key: String, _ message: String) -> ConfigError {
        var line = node.mark?.line
        if case .mapping(let mapping) = node {
            for (candidate, value) in mapping where candidate.keyText == key {
                line = value.mark?.line ?? candidate.mark?.line
            }
        }
        return ConfigError(file: file, line: line, path: KeyPath.render(path + [NameKey(key)]), message: message)
    }
}
