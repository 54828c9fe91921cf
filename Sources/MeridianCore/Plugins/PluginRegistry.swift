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

/// How to build a plugin of one configuration `type` from its options and a context.
public struct PluginType<Context: Sendable, Plugin>: Sendable {
    public var type: String
    public var summary: String
    public var options: [OptionInfo]
    /// Decodes the plugin's own options and builds it; configuration errors are thrown as `ConfigError`.
    /// (A plugin's `meridian` subcommands are registered beside it in MeridianCLI's `CommandRegistry`.)
    public var make: @Sendable (PluginOptions, Context) throws -> Plugin

    public init(
        type: String, summary: String, options: [OptionInfo],
        make: @escaping @Sendable (PluginOptions, Context) throws -> Plugin
    ) {
        self.type = type
        self.summary = summary
        self.options = options
        self.make = make
    }
}

/// How to build a provider of one configuration `type`.
public typealias ProviderType = PluginType<ProviderContext, any LocationProvider>

/// How to build a consumer of one configuration `type`.
public typealias ConsumerType = PluginType<PluginContext, any LocationConsumer>

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
