import ArgumentParser
import MeridianCore

/// A plugin's part of the command line, registered beside the plugin in a `CommandRegistry`: the `meridian`
/// subcommands it contributes, and what it offers other plugins' commands (as its `make` offers other plugins
/// through `PluginContext.resources` in the service).
public struct PluginCommands: Sendable {
    /// The subcommands, in the order `meridian --help` lists them.
    public var commands: [any ParsableCommand.Type]
    /// Puts into the command line's resources what this plugin offers other plugins' commands; most offer nothing.
    public var offer: @Sendable (Resources) -> Void

    public init(_ commands: [any ParsableCommand.Type] = [], offer: @escaping @Sendable (Resources) -> Void = { _ in })
    {
        self.commands = commands
        self.offer = offer
    }
}

/// A command that uses what plugins offer one another's commands (`PluginCommands.offer`): the `meridian` shell
/// runs it with the resources it built from every registration.
public protocol ResourceUsingCommand: AsyncParsableCommand {
    func run(with resources: Resources) async throws
}

extension ResourceUsingCommand {
    /// Run on its own, outside the shell, nothing is offered.
    public func run() async throws {
        try await run(with: Resources())
    }
}
