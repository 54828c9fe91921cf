import ArgumentParser
import Foundation
import Logging
import MeridianCLI
import MeridianCore
import MeridianHTTP
import MeridianStore

/// `meridian config check PATH`: validates a configuration without starting anything.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with configuration files.",
        subcommands: [Check.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate a configuration: exit 0 with a summary, or exit 2 with the error."
        )

        @Argument(help: "Configuration file (default Config/meridian.yaml or MERIDIAN_CONFIG).")
        var path: String?

        func run() async throws {
            try await reportingFailures {
                let environment = ProcessInfo.processInfo.environment
                let file = ConfigLoader.resolvePath(path, environment: environment)
                do {
                    let config = try ConfigLoader.load(path: file, environment: environment)
                    try MeridianServer.validate(config.http)
                    // Building every plugin checks each one's own options (nothing is started).
                    let resources = Resources()
                    resources[StoreKey.self] = try Store.inMemory()
                    var logger = Logger(label: "meridian.config-check")
                    logger.logLevel = .critical
                    _ = try PluginHost(config: config, registry: StandardPlugins.registry, logger: logger, resources: resources)
                    print(Self.summary(config, file: file))
                } catch let error as ConfigError {
                    throw CommandFailure("\(error)", code: 2)
                }
            }
        }

        static func summary(_ config: MeridianConfig, file: String) -> String {
            let providers = config.providers.map { "\($0.id) (\($0.type), priority \($0.priority))" }
            let consumers = config.consumers.map { $0.id == $0.type ? $0.type : "\($0.id) (\($0.type))" }
            return "\(file): OK — \(providers.count) provider\(providers.count == 1 ? "" : "s"): "
                + (providers.isEmpty ? "none" : providers.joined(separator: ", "))
                + "; \(consumers.count) consumer\(consumers.count == 1 ? "" : "s"): "
                + (consumers.isEmpty ? "none" : consumers.joined(separator: ", "))
                + "; http \(config.http.host):\(config.http.port); store \(config.store.path); units \(config.units.rawValue)"
        }
    }
}
