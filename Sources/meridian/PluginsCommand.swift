import ArgumentParser
import MeridianCLI
import MeridianCore

/// `meridian plugins`: the registered provider and consumer types with their options.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the provider and consumer types this build knows, with their options."
    )

    @Flag(
        help:
            "Print {\"providers\": [type…], \"consumers\": [type…]}, each type with its summary, options and commands.")
    var json = false

    /// One plugin type in the JSON form.
    struct TypeDescription: Encodable {
        struct Option: Encodable {
            var name: String
            var kind: String
            /// Absent for a required option.
            var `default`: String?
            var required: Bool
            var summary: String
        }

        var type: String
        var summary: String
        var options: [Option]
        var commands: [String]

        init<Context, Plugin>(_ plugin: PluginType<Context, Plugin>, commands: [any ParsableCommand.Type]) {
            type = plugin.type
            summary = plugin.summary
            options = plugin.options.map {
                Option(
                    name: $0.name, kind: $0.kind, default: $0.defaultValue, required: $0.defaultValue == nil,
                    summary: $0.summary)
            }
            self.commands = commands.compactMap { $0.configuration.commandName }
        }
    }

    func run() async throws {
        let commandLine = StandardPlugins.commandLine
        let registry = commandLine.plugins
        if json {
            let document = [
                "providers": registry.providerTypes.map {
                    TypeDescription($0, commands: commandLine.commands(ofProvider: $0.type))
                },
                "consumers": registry.consumerTypes.map {
                    TypeDescription($0, commands: commandLine.commands(ofConsumer: $0.type))
                }
            ]
            return try await reportingFailures { print(try MeridianJSON.string(document)) }
        }
        print("Providers (each entry also takes id, priority, stale_after):")
        for provider in registry.providerTypes {
            print(Self.describe(type: provider.type, summary: provider.summary, options: provider.options))
        }
        print("Consumers (each entry also takes an optional id):")
        for consumer in registry.consumerTypes {
            print(Self.describe(type: consumer.type, summary: consumer.summary, options: consumer.options))
        }
    }

    static func describe(type: String, summary: String, options: [OptionInfo]) -> String {
        var lines = ["  \(type) — \(summary)"]
        for option in options {
            let requirement = option.defaultValue.map { "default \($0)" } ?? "required"
            lines.append("      \(option.name): \(option.kind), \(requirement). \(option.summary)")
        }
        return lines.joined(separator: "\n")
    }
}
