import ActivityFiles
import Foundation
import Logging
import MeridianCLI
import MeridianCore
import ServiceLifecycle

/// Replays a recorded track (NMEA, GPX, gpsd JSON) as a live provider.
///
/// Reads the file in chunks, paces fixes by their timestamps (`speed`), optionally
/// loops and retimes them, and reports `connected` while replaying and `finished`
/// at the end. Bad parts of the file are counted and skipped (the first few logged with
/// their line, then one summary per pass). A file that cannot be read or holds no fix
/// (missing, deleted while looping, not a track) is retried with backoff like a device.
package final class ReplayProvider: LocationProvider {
    package let id: String
    package let options: ReplayOptions
    private let url: URL
    private let context: ProviderContext
    private let backoff: Backoff

    /// The `replay` provider type.
    package static let registration = ProviderType(
        type: "replay",
        summary: "Replays a recorded NMEA log, GPX track or gpsd JSON log as live fixes",
        options: ReplayOptions.info
    ) { options, context in
        var decoded = try options.decode(ReplayOptions.self)
        decoded.file = options.path(decoded.file)
        guard decoded.speed.isFinite, (0...1000).contains(decoded.speed) else {
            throw options.error(
                key: "speed",
                "\(decoded.speed) is outside 0...1000; use 1 for real time, 10 for ten times faster, 0 for as fast as possible"
            )
        }
        let url = URL(fileURLWithPath: decoded.file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw options.error(
                key: "file",
                "no track file at '\(url.path)'; give the path of an NMEA log, GPX file or gpsd JSON log (relative paths start at the configuration file's folder)"
            )
        }
        return ReplayProvider(options: decoded, context: context)
    }

    /// `meridian replay`.
    package static let commandLine = PluginCommands([ReplayCommand.self])

    /// `backoff` paces the retries after a pass fails (the file is missing, unreadable or holds no fix).
    package init(options: ReplayOptions, context: ProviderContext, backoff: Backoff = Backoff()) {
        self.id = context.id
        self.options = options
        self.url = URL(fileURLWithPath: options.file)
        self.context = context
        self.backoff = backoff
    }

    package func run() async throws {
        context.health.declare(["passes", "read_errors"])
        await ReconnectLoop.runUntilShutdown(
            backoff: backoff, health: context.health, logger: context.logger,
            connectingMessage: "opening \(url.path)", retryCounter: "retries"
        ) {
            await self.replayPasses()
        }
    }

    /// Replays the file pass after pass (once without `loop`) until a pass fails, the file ends or the task is cancelled.
    private func replayPasses() async -> ReconnectLoop.Outcome {
        var pacer = ReplayPacer(speed: options.speed, retime: options.retime)
        var madeProgress = false
        while !Task.isCancelled {
            let failure: String
            do {
                try await replayPass(&pacer)
                madeProgress = true
                context.health.count("passes")
                guard options.loop else {
                    return ReconnectLoop.Outcome(
                        madeProgress: true, reason: "replayed \(url.lastPathComponent)", finished: true)
                }
                continue
            } catch let error as ReplayFailure {
                failure = error.message
            } catch {
                failure = "stopped"  // cancelled: graceful shutdown
            }
            return ReconnectLoop.Outcome(madeProgress: madeProgress, reason: failure)
        }
        return ReconnectLoop.Outcome(madeProgress: madeProgress, reason: "stopped")
    }

    /// Why a pass over the file failed (the provider retries with backoff).
    private struct ReplayFailure: Error {
        var message: String
    }

    /// One pass over the file: every fix, paced. Throws `ReplayFailure` when the file cannot be read or holds no fix,
    /// `CancellationError` on shutdown.
    private func replayPass(_ pacer: inout ReplayPacer) async throws {
        let health = context.health
        let logger = context.logger
        let reader: TrackFileReader
        do {
            reader = try TrackFileReader(url: url, format: options.format, providerID: id, checksum: options.checksum)
        } catch {
            throw ReplayFailure(message: error.description)
        }
        health.update(.connected, message: "replaying \(url.lastPathComponent) (\(reader.format.rawValue))")
        pacer.startPass(now: Date())
        var problems = TrackProblemDigest()
        defer {
            health.setCounters(reader.counters)
            if let summary = problems.summary() { logger.warning("\(summary)") }
        }
        var emitted = 0
        let tap = context.plugin.resources[SentenceTap.Key.self]
        var pending: [String] = []
        do {
            while let batch = try nextBatch(
                reader, passingTo: tap, pending: &pending,
                onError: { error in
                    health.count("read_errors")
                    if let shown = problems.admit(error) { logger.warning("\(shown)") }
                })
            {
                // Published before the batch is paced out: the reader has decoded it (a GPX file whole), and a slow
                // replay would otherwise show nothing until the batch ends.
                health.setCounters(reader.counters)
                for (fix, sentences) in batch {
                    let wait = pacer.delay(for: fix.time, now: Date())
                    if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
                    try Task.checkCancellation()
                    for text in sentences { tap?.offer(SentenceTap.Sentence(providerID: id, text: text)) }
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
            throw ReplayFailure(message: error.description)
        }
        guard emitted > 0 else {
            throw ReplayFailure(
                message:
                    "\(url.path) contains no replayable fixes (format \(reader.format.rawValue)); check the file and the format option"
            )
        }
    }

    /// Sentences of an epoch kept while no fix has used them (a log whose epochs make no fix); older ones are dropped.
    private static let pendingSentenceLimit = 256

    /// The next batch of fixes, each with the log's own sentences of its epoch, as read, when an NMEA log is replayed
    /// and someone observes the sentence tap (else none, and the reader does no sentence work); nil at the end.
    /// `pending` holds the sentences of the epoch that is still open between batches.
    private func nextBatch(
        _ reader: TrackFileReader, passingTo tap: SentenceTap?, pending: inout [String],
        onError: (TrackReadError) -> Void
    ) throws(TrackReadError) -> [(fix: Fix, sentences: [String])]? {
        guard let tap, tap.isObserved, reader.format == .nmea else {
            return try reader.nextBatch(onError: onError)?.map { ($0, []) }
        }
        var batch: [(fix: Fix, sentences: [String])] = []
        var open = pending
        // The decoder hands a sentence on after the fix it completed: the sentences before a fix are its epoch's.
        let more = try reader.nextBatch(
            onError: onError,
            onFix: { fix in
                batch.append((fix, open))
                open.removeAll()
            },
            onSentence: { bytes in
                if open.count >= Self.pendingSentenceLimit { open.removeFirst() }
                open.append("$" + String(decoding: bytes, as: UTF8.self))
            })
        pending = open
        return more ? batch : nil
    }
}
