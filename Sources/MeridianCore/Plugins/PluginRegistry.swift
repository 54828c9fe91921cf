/// Describes one option of a plugin, for `meridian plugins` and the documentation.
public struct OptionInfo: Sendable, Equatable {
    public var name: String
    /// The expected kind of value, e.g. "string", "integer 4800...921600", "required|optional".
    public var kind: String
    /// The default, or `nil` when the option is required.
    public var defaultValue: String?
    public var summary: String

    public init(_ name: String, _ kind: String, default defaultValue: String? = nil, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// How to build a provider of one configuration `type`.
public struct ProviderType: Sendable {
    public var type: String
    public var summary: String
    public var options: [OptionInfo]
    /// Decodes the plugin's own options and builds the provider; configuration errors are thrown as `ConfigError`.
    public var make: @Sendable (PluginOptions, ProviderContext) throws -> any LocationProvider

    public init(type: String, summary: String, options: [OptionInfo],
                make: @escaping @Sendable (PluginOptions, ProviderContext) throws -> any LocationProvider) {
        self.type = type
        self.summary = summary
        self.options = options
        self.make = make
    }
}

/// How to build a consumer of one configuration `type`.
public struct ConsumerType: Sendable {
    public var type: String
    public var summary: String
    public var options: [OptionInfo]
    /// Decodes the plugin's own options and builds the consumer.
    public var make: @Sendable (PluginOptions, PluginContext) throws -> any LocationConsumer

    public init(type: String, summary: String, options: [OptionInfo],
                make: @escaping @Sendable (PluginOptions, PluginContext) throws -> any LocationConsumer) {
        self.type = type
        self.summary = summary
        self.options = options
        self.make = make
    }
}

/// Maps configuration `type` strings to plugin factories.
public struct PluginRegistry: Sendable {
    public private(set) var providerTypes: [ProviderType] = []
    public private(set) var consumerTypes: [ConsumerType] = []

    public init() {}

    /// Adds a provider type; a later registration of the same type replaces the earlier one.
    public mutating func register(_ provider: ProviderType) {
        providerTypes.removeAll { $0.type == provider.type }
        providerTypes.append(provider)
    }

    /// Adds a consumer type; a later registration of the same type replaces the earlier one.
    public mutating func register(_ consumer: ConsumerType) {
        consumerTypes.removeAll { $0.type == consumer.type }
        consumerTypes.append(consumer)
    }

    public func provider(_ type: String) -> ProviderType? { providerTypes.first { $0.type == type } }
    public func consumer(_ type: String) -> ConsumerType? { consumerTypes.first { $0.type == type } }
}
