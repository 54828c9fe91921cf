import ArgumentParser
import Foundation
import Logging
import MeridianCLI
import MeridianCore
import ServiceLifecycle
import Synchronization

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
            commandName: "watch",
            abstract: "Print fixes from gpsd as they arrive (one per epoch) until interrupted, -n fixes or --timeout.",
            discussion: """
                Connects like the gpsd provider does, merges gpsd's reports into one fix per epoch and prints each. \
                With --json, one object per line with the keys of `meridian replay --json`. Connection changes are \
                reported on stderr. Exits 1 when nothing answers at the address, or when --timeout passes without \
                a fix; once connected, a lost connection is retried with backoff. Stop with Ctrl-C.
                """
        )

        @Option(help: "gpsd's address.")
        var host = "127.0.0.1"

        @Option(help: "gpsd's TCP port.")
        var port = 2947

        @Option(help: "Watch only this gpsd device, e.g. /dev/ttyUSB0.")
        var device: String?

        @Option(name: [.customShort("n"), .long], help: "Exit after this many fixes (like gpspipe -n).")
        var count: Int?

        @Option(help: "Exit after this many seconds (like gpspipe -x); with exit code 1 when no fix arrived.")
        var timeout: Double?

        @Flag(help: "One JSON object per fix.")
        var json = false

        func validate() throws {
            guard (1...65_535).contains(port) else {
                throw ValidationError("--port \(port) is not a TCP port; give 1...65535 (gpsd listens on 2947)")
            }
            if let count, count < 1 { throw ValidationError("--count \(count) must be 1 or more") }
            if let timeout, !(timeout.isFinite && timeout > 0) {
                throw ValidationError("--timeout \(timeout) must be a number of seconds above 0")
            }
        }

        func run() async throws {
            try await reportingFailures {
                var logger = Logger(label: "meridian.gpsd")
                logger.logLevel = .error  // state changes are printed below, once each
                let json = self.json
                let printed = Atomic<Int>(0)
                let outputFailure = Mutex<String?>(nil)
                let limit = count ?? .max
                let context = ProviderContext(plugin: PluginContext(id: "gpsd", logger: logger)) { fix in
                    // Exactly `count` fixes, even when more arrive before the watch has stopped.
                    guard outputFailure.withLock({ $0 }) == nil,
                        printed.add(1, ordering: .relaxed).oldValue < limit
                    else { return }
                    do {
                        try Self.print(fix, json: json)
                    } catch {
                        outputFailure.withLock { $0 = "\(error)" }
                    }
                }
                let provider = GPSDProvider(host: host, port: port, device: device, context: context)
                let watcher = WatchMonitor(
                    health: context.health, printed: { printed.load(ordering: .relaxed) },
                    outputFailure: { outputFailure.withLock { $0 } }, count: count,
                    deadline: timeout.map { ContinuousClock.now + .seconds($0) })
                let group = ServiceGroup(
                    configuration: .init(
                        services: [
                            .init(service: provider),
                            .init(service: watcher, successTerminationBehavior: .gracefullyShutdownGroup)
                        ],
                        gracefulShutdownSignals: [.sigterm, .sigint],
                        logger: logger))
                try await group.run()
                if let failure = watcher.failure.withLock({ $0 }) { throw CommandFailure(failure) }
            }
        }

        /// Writes one line at once (fixes arrive one at a time, so nothing is buffered).
        private static func print(_ fix: Fix, json: Bool) throws {
            var bytes: [UInt8] = []
            if json {
                FixJSONWriter.append(fix, to: &bytes)  // the text MeridianJSON makes of a FixRecord, keys in order
            } else {
                bytes = Array(FixLine.text(fix, units: .metric).utf8)
            }
            bytes.append(0x0A)
            try bytes.withUnsafeBytes { try Standard.output($0) }
        }
    }
}

/// Prints the provider's state to stderr whenever it changes (connected, lost, retrying…), and ends the watch when
/// `count` fixes were printed, the deadline passed, the first connection failed or a fix could not be written (then
/// `failure` says why).
private final class WatchMonitor: Service, Sendable {
    let health: ProviderHealth
    let printed: @Sendable () -> Int
    let outputFailure: @Sendable () -> String?
    let count: Int?
    let deadline: ContinuousClock.Instant?
    let failure = Mutex<String?>(nil)

    init(
        health: ProviderHealth, printed: @escaping @Sendable () -> Int,
        outputFailure: @escaping @Sendable () -> String?, count: Int?, deadline: ContinuousClock.Instant?
    ) {
        self.health = health
        self.printed = printed
        self.outputFailure = outputFailure
        self.count = count
        self.deadline = deadline
    }

    func run() async throws {
        var last: (ProviderState, String?)?
        var connected = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let snapshot = health.snapshot
            if last.map({ $0.0 != snapshot.state || $0.1 != snapshot.message }) ?? true, snapshot.state != .starting {
                Standard.error("gpsd: \(snapshot.state.rawValue)\(snapshot.message.map { ": \($0)" } ?? "")")
                last = (snapshot.state, snapshot.message)
            }
            connected = connected || snapshot.state == .connected || printed() > 0
            if let message = outputFailure() {
                failure.withLock { $0 = message }
                return
            }
            if let count, printed() >= count { return }
            // Nothing answers: the first connection attempt itself failed (a connection that was made and closed
            // may have come and gone between two looks; it counts no connect failure).
            if snapshot.state == .disconnected, !connected, snapshot.counters["connect_failures", default: 0] > 0 {
                let reason =
                    snapshot.message.map { $0.components(separatedBy: "; retrying in").first ?? $0 }
                    ?? "no connection to gpsd"
                failure.withLock { $0 = "nothing answers: \(reason)" }
                return
            }
            if let deadline, ContinuousClock.now >= deadline {
                if printed() == 0 { failure.withLock { $0 = "no fix from gpsd within the --timeout" } }
                return
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
