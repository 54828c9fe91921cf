import ArgumentParser
import MeridianCore

/// The plugins a command line knows: the host's `PluginRegistry`, and beside each plugin its `PluginCommands`.
/// The core knows no command line; this is where plugins' commands are registered.
public struct CommandRegistry: Sendable {
    /// The plugins, as the service builds them.
    public private(set) var plugins = PluginRegistry()
    private var providerCommands: [String: PluginCommands] = [:]
    private var consumerCommands: [String: PluginCommands] = [:]

    public init() {}

    /// Adds a provider type with its commands; a later registration of the same type replaces both.
    public mutating func register(_ provider: ProviderType, commands: PluginCommands = PluginCommands()) {
        plugins.register(provider)
        providerCommands[provider.type] = commands
    }

    /// Adds a consumer type with its commands; a later registration of the same type replaces both.
    public mutating func register(_ consumer: ConsumerType, commands: PluginCommands = PluginCommands()) {
        plugins.register(consumer)
        consumerCommands[consumer.type] = commands
    }

    /// The subcommands of provider type `type`.
    public func commands(ofProvider type: String) -> [any ParsableCommand.Type] {
        providerCommands[type]?.commands ?? []
    }

    /// The subcommands of consumer type `type`.
    public func commands(ofConsumer type: String) -> [any ParsableCommand.Type] {
        consumerCommands[type]?.commands ?? []
    }

    /// Every plugin's subcommands: the providers' first, each kind in registration order.
    public var commands: [any ParsableCommand.Type] {
        plugins.providerTypes.flatMap { commands(ofProvider: $0.type) }
            + plugins.consumerTypes.flatMap { commands(ofConsumer: $0.type) }
    }

    /// New resources holding what every plugin offers other plugins' commands, for the shell to run a
    /// `ResourceUsingCommand` with.
    public func offers() -> Resources {
        let resources = Resources()
        for type in plugins.providerTypes { providerCommands[type.type]?.offer(resources) }
        for type in plugins.consumerTypes { consumerCommands[type.type]?.offer(resources) }
        return resources
    }
}
