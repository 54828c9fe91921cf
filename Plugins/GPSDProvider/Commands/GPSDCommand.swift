import ArgumentParser
import Foundation
import Logging
import MeridianCLI
import MeridianCore
import ServiceLifecycle

/// `meridian gpsd …`: tools for checking a gpsd set-up.
struct GPSDCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpsd",
        abstract: "Check a gpsd set-up.",
        subcommands: [Watch.self]
    )

    /// `meridian gpsd watch`: prints fixes as they arrive, like `gpspipe -w`, through the same code as the `gpsd` provider.
    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print fixes from gpsd as they arrive (one per epoch) until interrupted.",
            discussion: """
                Connects like the gpsd provider does (reconnecting with backoff), merges gpsd's reports into one \
                fix per epoch and prints each. With --json, one object per line with the keys of \
                `meridian replay --json`. Connection changes are reported on stderr. Stop with Ctrl-C.
                """
        )

        @Option(help: "gpsd's address.")
        var host = "127.0.0.1"

        @Option(help: "gpsd's TCP port.")
        var port = 2947

        @Option(help: "Watch only this gpsd device, e.g. /dev/ttyUSB0.")
        var device: String?

        @Flag(help: "One JSON object per fix.")
        var json = false

        func validate() throws {
            guard (1...65_535).contains(port) else {
                throw ValidationError("--port \(port) is not a TCP port; give 1...65535 (gpsd listens on 2947)")
            }
        }

        func run() async throws {
            try await reportingFailures {
                var logger = Logger(label: "meridian.gpsd")
                logger.logLevel = .error  // state changes are printed below, once each
                let json = self.json
                let context = ProviderContext(plugin: PluginContext(id: "gpsd", logger: logger)) { fix in
                    Self.print(fix, json: json)
                }
                let provider = GPSDProvider(host: host, port: port, device: device, context: context)
                let reporter = HealthReporter(health: context.health)
                let group = ServiceGroup(configuration: .init(
                    services: [.init(service: provider), .init(service: reporter)],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger))
                try await group.run()
            }
        }

        /// Writes one line at once (fixes arrive one at a time, so nothing is buffered).
        private static func print(_ fix: Fix, json: Bool) {
            var bytes: [UInt8] = []
            if json {
                FixJSONWriter.append(fix, to: &bytes)  // the text MeridianJSON makes of a FixRecord, keys in order
            } else {
                bytes = Array(FixLine.text(fix, units: .metric).utf8)
            }
            bytes.append(0x0A)
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

/// Prints the provider's state to stderr whenever it changes (connected, lost, retrying…).
private struct HealthReporter: Service {
    let health: ProviderHealth

    func run() async throws {
        var last: (ProviderState, String?)?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let snapshot = health.snapshot
            if last.map({ $0.0 != snapshot.state || $0.1 != snapshot.message }) ?? true, snapshot.state != .starting {
                Standard.error("gpsd: \(snapshot.state.rawValue)\(snapshot.message.map { ": \($0)" } ?? "")")
                last = (snapshot.state, snapshot.message)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
