import Foundation
import Logging
import MeridianCore
import NIOCore
import NIOPosix
import NMEA
import ServiceLifecycle

/// Reads NMEA 0183 from a serial receiver (`type: nmea-serial`).
///
/// Opens the tty raw with termios and reads it through SwiftNIO. When the
/// device is missing, cannot be opened, disappears or goes silent, the state is
/// reported and the device is reopened with backoff (1 s doubling to 30 s)
/// until it returns; the service keeps running.
package final class NMEASerialProvider: LocationProvider, Sendable {
    package let id: String
    let options: NMEASerialOptions
    let timing: SerialTiming
    private let context: ProviderContext
    private let session: SerialSession

    /// The registration for `type: nmea-serial`.
    package static let registration = ProviderType(
        type: "nmea-serial",
        summary: "NMEA 0183 from a serial GPS receiver (tty), reopened with backoff when it disappears.",
        options: [
            OptionInfo("device", "path", "Serial device, e.g. /dev/ttyUSB0 or /dev/serial/by-id/…"),
            OptionInfo(
                "baud", "integer: " + NMEASerialOptions.standardBaudRates.map(String.init).joined(separator: "|"),
                default: "4800", "Line speed."),
            OptionInfo(
                "checksum", ChecksumPolicy.allCases.map(\.rawValue).joined(separator: "|"), default: "required",
                "Whether sentences without a *hh checksum are accepted."),
            OptionInfo(
                "init", "list of sentences", default: "[]",
                "Sentences written after opening (e.g. PMTK220,200); $, checksum and CRLF are added when missing."),
            OptionInfo(
                "silence_timeout", "seconds", default: "5",
                "Without any data for this long the device is reopened.")
        ]
    ) { options, context in
        NMEASerialProvider(options: try NMEASerialOptions.decode(options), context: context)
    }

    init(options: NMEASerialOptions, timing: SerialTiming = SerialTiming(), context: ProviderContext) {
        self.id = context.id
        self.options = options
        self.timing = timing
        self.context = context
        self.session = SerialSession(context: context, checksum: options.checksum)
    }

    /// Opens the device, reads until it is gone, and waits with backoff, until shutdown.
    package func run() async throws {
        let device = options.device
        context.health.declare(Array(NMEACounters().dictionary.keys) + ["open_failures", "silences"])
        await ReconnectLoop.runUntilShutdown(
            backoff: timing.backoff, health: context.health, logger: context.logger,
            connectingMessage: "opening \(device) at \(options.baud) baud",
            retryCounter: "reopens"
        ) {
            await self.readUntilGone().outcome(otherwise: "\(device) was closed")
        }
    }

    private func readUntilGone() async -> ConnectionRecord {
        let outcome = ConnectionRecord()
        let descriptor: CInt
        do {
            descriptor = try SerialPort.open(path: options.device, baud: options.baud)
        } catch {
            outcome.close(because: error.description, counting: "open_failures")
            return outcome
        }
        session.assumeToday()
        context.health.update(.connected, message: "opened \(options.device) at \(options.baud) baud; waiting for data")

        let (session, path, timing) = (self.session, options.device, self.timing)
        let initBytes = options.initSentences.flatMap { (try? InitSentence.frame($0)) ?? [] }
        let silence = TimeAmount.nanoseconds(Int64(options.silenceTimeout * 1e9))
        let bootstrap = NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        IdleStateHandler(readTimeout: silence),
                        SerialChannelHandler(
                            session: session, outcome: outcome, path: path, initBytes: initBytes,
                            quietPeriod: timing.epochQuietPeriod, silenceTimeout: silence)
                    ])
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.takingOwnershipOfDescriptor(inputOutput: descriptor).get()
        } catch {
            close(descriptor)
            outcome.close(because: "cannot read \(path): \(error)")
            return outcome
        }
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        return outcome
    }
}

/// Timings of the serial reader; tests shorten the backoff.
struct SerialTiming: Sendable {
    /// Delays between reopening attempts.
    var backoff = Backoff()
    /// An epoch is emitted once no byte has arrived for this long (receivers send one burst per epoch).
    var epochQuietPeriod: TimeAmount = .milliseconds(250)
}
