import ActivityFiles
import Foundation
import Logging
import MeridianCore
import ServiceLifecycle

/// Replays a recorded track (NMEA, GPX, gpsd JSON) as a live provider.
///
/// Reads the file in chunks, paces fixes by their timestamps (`speed`), optionally
/// loops and retimes them, and reports `connected` while replaying and `finished`
/// at the end. Bad parts of the file are logged, counted and skipped.
public final class ReplayProvider: LocationProvider {
    public let id: String
    public let options: ReplayOptions
    private let url: URL
    private let context: ProviderContext

    /// The `replay` provider type.
    public static let registration = ProviderType(
        type: "replay",
        summary: "Replays a recorded NMEA log, GPX track or gpsd JSON log as live fixes",
        options: ReplayOptions.info,
        commands: [ReplayCommand.self]
    ) { options, context in
        let decoded = try options.decode(ReplayOptions.self)
        guard decoded.speed.isFinite, (0...1000).contains(decoded.speed) else {
            throw options.error(key: "speed", "\(decoded.speed) is outside 0...1000; use 1 for real time, 10 for ten times faster, 0 for as fast as possible")
        }
        let url = URL(fileURLWithPath: decoded.file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw options.error(key: "file", "no track file at '\(url.path)'; give the path of an NMEA log, GPX file or gpsd JSON log (relative paths start at the working directory)")
        }
        return ReplayProvider(options: decoded, context: context)
    }

    public init(options: ReplayOptions, context: ProviderContext) {
        self.id = context.id
        self.options = options
        self.url = URL(fileURLWithPath: options.file)
        self.context = context
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await self.replay() }
        } catch is CancellationError {
            // Graceful shutdown or cancellation: stop quietly.
        }
    }

    private func replay() async throws {
        let health = context.health
        let logger = context.logger
        health.update(.connecting)
        var pacer = ReplayPacer(speed: options.speed, retime: options.retime)
        var passes = 0
        repeat {
            let reader: TrackFileReader
            do {
                reader = try TrackFileReader(url: url, format: options.format, providerID: id, checksum: options.checksum)
            } catch {
                logger.error("\(error)")
                health.update(.failed, message: error.description)
                return
            }
            health.update(.connected, message: "replaying \(url.lastPathComponent) (\(reader.format.rawValue))")
            pacer.startPass(now: Date())
            var emitted = 0
            do {
                while let batch = try reader.nextBatch(onError: { error in
                    logger.warning("\(error)")
                    health.count("read_errors")
                }) {
                    // Published even when the replay is cancelled half-way through the batch.
                    defer { health.setCounters(reader.counters) }
                    for fix in batch {
                        let wait = pacer.delay(for: fix.time, now: Date())
                        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
                        try Task.checkCancellation()
                        var replayed = fix
                        replayed.time = pacer.stamp(fix.time)
                        context.emit(replayed)
                        emitted += 1
                    }
                    // Never hold a cooperative thread for a whole file at speed 0.
                    await Task.yield()
                    try Task.checkCancellation()
                }
            } catch let error as TrackReadError {
                logger.error("\(error)")
                health.update(.failed, message: error.description)
                return
            }
            passes += 1
            health.setCounters(reader.counters.merging(["passes": passes]) { $1 })
            guard emitted > 0 else {
                let message = "\(url.path) contains no replayable fixes (format \(reader.format.rawValue)); check the file and the format option"
                logger.error("\(message)")
                health.update(.failed, message: message)
                return
            }
        } while options.loop
        health.update(.finished, message: "replayed \(url.lastPathComponent)")
    }
}
