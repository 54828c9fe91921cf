import Foundation
import Yams

/// Reads `meridian.yaml`, applying the `MERIDIAN_*` environment overrides.
public enum ConfigLoader {
    /// The configuration used when none is named.
    public static let defaultPath = "Config/meridian.yaml"

    /// Picks the file: an explicit path, else `MERIDIAN_CONFIG`, else the default.
    public static func resolvePath(_ explicit: String?, environment: [String: String]) -> String {
        explicit ?? environment["MERIDIAN_CONFIG"] ?? defaultPath
    }

    /// Loads and validates the file at `path`; `MERIDIAN_TOKEN` and `MERIDIAN_DB` override the file.
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> MeridianConfig
    {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigError(
                file: path, path: "",
                message:
                    "configuration file not found; pass --config PATH or set MERIDIAN_CONFIG (the default is \(defaultPath))"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, path: "", message: "cannot read the file; check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, path: "", message: "the file is not UTF-8 text")
        }
        var config = try parse(text, file: path)
        applyOverrides(&config, environment: environment)
        if let token = environment["MERIDIAN_TOKEN"], !token.isEmpty {
            try checkToken(token, file: path, line: nil, path: "MERIDIAN_TOKEN")
        }
        return config
    }

    /// `path` as written in the configuration `file`: a relative path starts at the file's folder (so a configuration
    /// works from any working directory); an absolute path, or any path without a file, is left as it is.
    public static func resolve(_ path: String, relativeTo file: String?) -> String {
        guard let file, !path.isEmpty, !path.hasPrefix("/") else { return path }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        return URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL.path
    }

    /// Environment variables win over the file.
    public static func applyOverrides(_ config: inout MeridianConfig, environment: [String: String]) {
        if let token = environment["MERIDIAN_TOKEN"], !token.isEmpty { config.http.token = token }
        if let database = environment["MERIDIAN_DB"], !database.isEmpty { config.store.path = database }
    }

    /// Parses configuration text (without environment overrides).
    public static func parse(_ text: String, file: String? = nil) throws(ConfigError) -> MeridianConfig {
        let decoder = YAMLNodeDecoder(file: file)
        let root = try decoder.compose(text)
        guard case .mapping(let mapping) = root else {
            throw ConfigError(
                file: file, line: root.mark?.line, path: "",
                message: "the top level must be a mapping with http, store, web, units, providers and consumers")
        }
        var coreEntries: [(Node, Node)] = []
        var providers: [PluginSpec] = []
        var consumers: [PluginSpec] = []
        for (key, value) in mapping {
            switch key.keyText {
            case "providers": providers = try pluginList(value, section: "providers", file: file)
            case "consumers": consumers = try pluginList(value, section: "consumers", file: file)
            default: coreEntries.append((key, value))
            }
        }
        let core = try decoder.decode(CoreSection.self, from: .mapping(Node.Mapping(coreEntries)))
        var timeZone = TimeZone.current
        if let name = core.timeZone {
            guard let zone = TimeZone(identifier: name) else {
                let line = mapping.first { $0.key.keyText == "time_zone" }?.value.mark?.line
                throw ConfigError(
                    file: file, line: line, path: "time_zone",
                    message:
                        "'\(name)' is not a time zone; use an IANA name such as Europe/Berlin, America/New_York or UTC")
            }
            timeZone = zone
        }
        var store = core.store ?? .init()
        store.path = resolve(store.path, relativeTo: file)
        var http = core.http ?? .init()
        http.tls = http.tls.map {
            TLSSettings(certificate: resolve($0.certificate, relativeTo: file), key: resolve($0.key, relativeTo: file))
        }
        var config = MeridianConfig(
            http: http, store: store, web: core.web ?? .init(),
            units: core.units ?? .metric, timeZone: timeZone, logLevel: core.logLevel ?? "info",
            providers: providers, consumers: consumers,
            hooks: (core.hooks ?? []).map { hook in
                var hook = hook
                hook.caFile = hook.caFile.map { resolve($0, relativeTo: file) }
                return hook
            }, file: file)
        try validate(&config, root: mapping, file: file)
        return config
    }

    private struct CoreSection: Decodable {
        var http: HTTPSettings?
        var store: StoreSettings?
        var web: WebSettings?
        var units: UnitSystem?
        var timeZone: String?
        var logLevel: String?
        var hooks: [HookSpec]?

        enum CodingKeys: String, CodingKey {
            case http, store, web, units, providers, consumers, hooks
            case timeZone = "time_zone"
            case logLevel = "log_level"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            http = try container.decodeIfPresent(HTTPSettings.self, forKey: .http)
            store = try container.decodeIfPresent(StoreSettings.self, forKey: .store)
            web = try container.decodeIfPresent(WebSettings.self, forKey: .web)
            units = try container.decodeIfPresent(UnitSystem.self, forKey: .units)
            timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
            logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel)
            hooks = try container.decodeIfPresent([HookSpec].self, forKey: .hooks)
            // Read apart (`pluginList`), but asked for here so that a misspelt top-level key (`provider:`) is
            // matched against them too and they are listed among the expected keys.
            _ = container.contains(.providers)
            _ = container.contains(.consumers)
        }
    }

    private static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    private static func validate(_ config: inout MeridianConfig, root: Node.Mapping, file: String?) throws(ConfigError)
    {
        func line(_ section: String) -> Int? { root.first { $0.key.keyText == section }?.value.mark?.line }
        guard (0...65_535).contains(config.http.port) else {
            throw ConfigError(
                file: file, line: line("http"), path: "http.port",
                message: "\(config.http.port) is not a TCP port; use 1...65535, or 0 for one the system chooses")
        }
        for (key, seconds) in [
            ("idle_timeout", config.http.idleTimeout), ("header_timeout", config.http.headerTimeout),
            ("body_timeout", config.http.bodyTimeout)
        ] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw ConfigError(
                    file: file, line: line("http"), path: "http.\(key)",
                    message: "\(seconds) is not a timeout; give seconds above 0 and at most 86400")
            }
        }
        for (key, value, range) in [
            ("body_min_rate", config.http.bodyMinRate, 0...(1 << 30)),
            ("max_connections", config.http.maxConnections, 1...1_000_000)
        ] where !range.contains(value) {
            throw ConfigError(
                file: file, line: line("http"), path: "http.\(key)",
                message: "\(value) is out of range; give a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        if let token = config.http.token, !token.isEmpty {
            try checkToken(token, file: file, line: line("http"), path: "http.token")
        }
        guard logLevels.contains(config.logLevel) else {
            throw ConfigError(
                file: file, line: line("log_level"), path: "log_level",
                message:
                    "'\(config.logLevel)' is not a log level; expected one of: \(logLevels.joined(separator: ", "))")
        }
        guard !config.store.path.isEmpty else {
            throw ConfigError(
                file: file, line: line("store"), path: "store.path",
                message: "must not be empty; give a file path such as data/meridian.sqlite")
        }
        if let url = config.web.tileURL, let problem = WebSettings.problem(withTileURL: url) {
            throw ConfigError(file: file, line: line("web"), path: "web.tile_url", message: problem)
        }
        try validateHooks(config.hooks, root: root, file: file)
        if config.web.tileAttribution != nil && config.web.tileURL == nil {
            throw ConfigError(
                file: file, line: line("web"), path: "web.tile_attribution",
                message: "is only used with web.tile_url; set the tile URL or remove the attribution")
        }
    }

    /// Refuses a `hooks:` entry that cannot be used, naming it and its key, and two entries with one id.
    private static func validateHooks(_ hooks: [HookSpec], root: Node.Mapping, file: String?) throws(ConfigError) {
        let section = root.first { $0.key.keyText == "hooks" }?.value
        var seen: Set<String> = []
        for (index, hook) in hooks.enumerated() {
            var line = section?.mark?.line
            if case .sequence(let entries)? = section, index < entries.count { line = entries[index].mark?.line }
            if let (key, message) = hook.problem {
                throw ConfigError(file: file, line: line, path: "hooks[\(index)].\(key)", message: message)
            }
            guard seen.insert(hook.id).inserted else {
                throw ConfigError(
                    file: file, line: line, path: "hooks[\(index)].id",
                    message: "duplicate id '\(hook.id)'; give every hook its own id")
            }
        }
    }

    /// The fewest characters a bearer token may have: a short one can be guessed by trying.
    public static let minimumTokenLength = 16

    /// Refuses a token shorter than `minimumTokenLength` (an empty one means no token and is not checked here).
    private static func checkToken(_ token: String, file: String?, line: Int?, path: String) throws(ConfigError) {
        guard token.count < minimumTokenLength else { return }
        throw ConfigError(
            file: file, line: line, path: path,
            message:
                "the token has \(token.count) characters; use at least \(minimumTokenLength), e.g. from `openssl rand -hex 24`"
        )
    }

    private static let providerKeys: Set<String> = ["id", "type", "priority", "stale_after"]
    private static let consumerKeys: Set<String> = ["id", "type"]

    private static func pluginList(_ node: Node, section: String, file: String?) throws(ConfigError) -> [PluginSpec] {
        let decoder = NodeDecoder(node: node, codingPath: [NameKey(section)], file: file, tracker: KeyUsageTracker())
        if decoder.isNull { return [] }
        guard case .sequence(let sequence) = node else {
            throw decoder.mismatch(expected: "a list of plugin entries (each starting with '- type: ...')")
        }
        var specs: [PluginSpec] = []
        var seen: Set<String> = []
        for (index, entry) in sequence.enumerated() {
            let path: [any CodingKey] = [NameKey(section), IndexKey(index)]
            let entryDecoder = NodeDecoder(node: entry, codingPath: path, file: file, tracker: KeyUsageTracker())
            guard case .mapping(let mapping) = entry else {
                throw entryDecoder.mismatch(expected: "a mapping with at least 'type'")
            }
            let reserved = section == "providers" ? providerKeys : consumerKeys
            var own: [String: Node] = [:]
            var options: [(Node, Node)] = []
            for (key, value) in mapping {
                if reserved.contains(key.keyText) { own[key.keyText] = value } else { options.append((key, value)) }
            }
            func scalar(_ key: String) throws(ConfigError) -> NodeDecoder? {
                guard let value = own[key] else { return nil }
                return entryDecoder.child(value, key: NameKey(key))
            }
            guard let typeDecoder = try scalar("type") else {
                throw entryDecoder.error("missing required key 'type' (the plugin type, see `meridian plugins`)")
            }
            let type: String
            let id: String
            var priority = 0
            var staleAfter = 3.0
            do {
                type = try typeDecoder.scalarString()
                id = try scalar("id")?.scalarString() ?? (section == "providers" ? "" : type)
                if let value = try scalar("priority") { priority = try value.decodeInteger() }
                if let value = try scalar("stale_after") { staleAfter = try value.decodeDouble() }
            } catch let error as ConfigError {
                throw error
            } catch {
                throw entryDecoder.error("\(error)")
            }
            guard !id.isEmpty else {
                throw entryDecoder.error("missing required key 'id' (a unique name for this provider, e.g. 'garmin')")
            }
            guard staleAfter > 0 else {
                throw entryDecoder.child(own["stale_after"] ?? entry, key: NameKey("stale_after"))
                    .error("must be more than 0 seconds")
            }
            guard seen.insert(id).inserted else {
                throw entryDecoder.child(own["id"] ?? entry, key: NameKey("id"))
                    .error(
                        "duplicate id '\(id)'; every \(section == "providers" ? "provider" : "consumer") needs its own id"
                    )
            }
            let optionsNode = Node.mapping(Node.Mapping(options, .implicit, .any, mapping.mark))
            specs.append(
                PluginSpec(
                    id: id, type: type, priority: priority, staleAfter: staleAfter,
                    options: PluginOptions(node: optionsNode, path: path, file: file),
                    line: entry.mark?.line))
        }
        return specs
    }
}

extension Node {
    /// The scalar text of a key node (empty for non-scalars).
    var keyText: String {
        if case .scalar(let scalar) = self { return scalar.string }
        return ""
    }
}
