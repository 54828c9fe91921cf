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

        @Flag(
            help:
                "Print {\"file\", \"valid\", …} as JSON: the summary's figures, or the error with its line and key path."
        )
        var json = false

        func run() async throws {
            try await reportingFailures {
                let environment = ProcessInfo.processInfo.environment
                let file = ConfigLoader.resolvePath(path, environment: environment)
                do {
                    let config = try ConfigLoader.load(path: file, environment: environment)
                    try MeridianServer.validate(config.http)
                    // The certificate and key are read and matched as `serve` reads them (permissions included).
                    if let tls = config.http.tls { _ = try ServerCertificate(settings: tls) }
                    // Building every plugin checks each one's own options (nothing is started).
                    let resources = Resources()
                    resources[StoreKey.self] = try Store.inMemory()
                    var logger = Logger(label: "meridian.config-check")
                    logger.logLevel = .critical
                    _ = try PluginHost(
                        config: config, registry: StandardPlugins.registry, logger: logger, resources: resources)
                    print(json ? try MeridianJSON.string(Report(config, file: file)) : Self.summary(config, file: file))
                } catch var error as ConfigError {
                    // The checks after loading (http, TLS files, plugins) name the key; the file is this one.
                    if error.file == nil { error.file = file }
                    if json { print(try MeridianJSON.string(Report(error, file: file))) }
                    throw CommandFailure("\(error)", code: 2)
                }
            }
        }

        /// The JSON form of the check: what the summary says, or the error.
        struct Report: Encodable {
            struct Plugin: Encodable {
                var id: String
                var type: String
                var priority: Int?
            }

            struct Problem: Encodable {
                var line: Int?
                var path: String
                var message: String
            }

            var file: String
            var valid: Bool
            var providers: [Plugin]?
            var consumers: [Plugin]?
            var http: String?
            var store: String?
            var units: String?
            var timeZone: String?
            var error: Problem?

            init(_ config: MeridianConfig, file: String) {
                self.file = file
                valid = true
                providers = config.providers.map { Plugin(id: $0.id, type: $0.type, priority: $0.priority) }
                consumers = config.consumers.map { Plugin(id: $0.id, type: $0.type) }
                http = "\(config.http.host):\(config.http.port)"
                store = config.store.path
                units = config.units.rawValue
                timeZone = config.timeZone.identifier
            }

            init(_ error: ConfigError, file: String) {
                self.file = file
                valid = false
                self.error = Problem(line: error.line, path: error.path, message: error.message)
            }
        }

        static func summary(_ config: MeridianConfig, file: String) -> String {
            let providers = config.providers.map { "\($0.id) (\($0.type), priority \($0.priority))" }
            let consumers = config.consumers.map { $0.id == $0.type ? $0.type : "\($0.id) (\($0.type))" }
            return "\(file): OK — \(Counted.string(providers.count, "provider")): "
                + (providers.isEmpty ? "none" : providers.joined(separator: ", "))
                + "; \(Counted.string(consumers.count, "consumer")): "
                + (consumers.isEmpty ? "none" : consumers.joined(separator: ", "))
                + "; http \(config.http.host):\(config.http.port); store \(config.store.path); units \(config.units.rawValue)"
        }
    }
}
