import ArgumentParser
import MeridianCore

/// `meridian plugins`: the registered provider and consumer types with their options.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the provider and consumer types this build knows, with their options."
    )

    func run() async throws {
        let registry = StandardPlugins.registry
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
