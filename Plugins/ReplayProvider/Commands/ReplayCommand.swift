import ActivityFiles
import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import NMEA

/// `meridian replay FILE`: the fixes a replay of a recorded track produces.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Print the fixes a replay of an NMEA log, GPX track or gpsd JSON log produces.",
        discussion: """
            One fix per line; with --json one object per line with the keys time, lat, lon, alt_hae, alt_msl, \
            speed, track, mode, quality, eph, epv, satellites_used (unknown values are left out). \
            Problems in the file go to stderr (the first 5 with their line, then one summary), and the decoder's \
            counters after them.
            """
    )

    @Argument(help: "The track file.")
    var file: String

    @Option(help: "auto, nmea, gpx or gpsd.")
    var format: TrackFormat = .auto

    @Option(help: "1 real time, 10 ten times faster, 0 as fast as possible.")
    var speed: Double = 0

    @Option(help: "NMEA sentences without a checksum: required (rejected) or optional (accepted).")
    var checksum: ChecksumPolicy = .required

    @Flag(help: "Print JSON lines.")
    var json = false

    @Option(help: "Units for the readable output: metric or imperial.")
    var units: UnitSystem = .metric

    func run() async throws {
        try await reportingFailures {
            guard speed.isFinite, speed >= 0 else {
                throw CommandFailure("--speed \(speed) must be 0 or more (1 real time, 0 as fast as possible)", code: 2)
            }
            let reader: TrackFileReader
            do {
                reader = try TrackFileReader(
                    url: URL(fileURLWithPath: file), format: format, providerID: "replay",
                    checksum: checksum)
            } catch {
                throw CommandFailure("\(error)", code: 1)
            }
            var output = StandardOutputBuffer()
            // The parsed options read once: each read of an ArgumentParser property goes through its generic
            // wrapper, which costs more than writing a fix.
            let (speed, style) = (speed, json ? FixStyle.json : .text(units))
            var pacer = ReplayPacer(speed: speed, retime: false)
            pacer.startPass(now: Date())
            var pending: [Fix] = []
            var problems = TrackProblemDigest()
            while try readBatch(reader, into: &pending, problems: &problems) {
                for fix in pending {
                    if speed > 0 {
                        let wait = pacer.delay(for: fix.time, now: Date())
                        if wait > 0 {
                            try output.flush()
                            try await Task.sleep(for: .seconds(wait))
                        }
                    }
                    try Self.write(fix, style: style, to: &output)
                }
                if speed > 0 { try output.flush() }
            }
            try output.flush()
            if let summary = problems.summary() { Standard.error("meridian replay: \(summary)") }
            let counters = reader.counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            Standard.error("meridian replay: \(reader.format.rawValue): " + counters.joined(separator: " "))
        }
    }

    private func readBatch(_ reader: TrackFileReader, into batch: inout [Fix], problems: inout TrackProblemDigest)
        throws -> Bool
    {
        batch.removeAll(keepingCapacity: true)
        do {
            return try reader.nextBatch(
                onError: { error in
                    if let shown = problems.admit(error) { Standard.error("meridian replay: \(shown)") }
                }, onFix: { batch.append($0) })
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// How fixes are printed: JSON lines, or readable lines in the given units.
    private enum FixStyle {
        case json
        case text(UnitSystem)
    }

    private static func write(_ fix: Fix, style: FixStyle, to output: inout StandardOutputBuffer) throws {
        switch style {
        case .json:
            FixJSONWriter.append(fix, to: &output.bytes)
            output.bytes.append(0x0A)
        case .text(let units):
            output.append(FixLine.text(fix, units: units) + "\n")
        }
        try output.flushIfFull()
    }
}

/// Standard output through a large buffer (one `write` per megabyte, not per line).
struct StandardOutputBuffer {
    var bytes: [UInt8] = []
    static let capacity = 1 << 20

    init() {
        bytes.reserveCapacity(Self.capacity + 4096)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func flushIfFull() throws {
        if bytes.count >= Self.capacity { try flush() }
    }

    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try Standard.output($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}

extension TrackFormat: ExpressibleByArgument {}
extension ChecksumPolicy: ExpressibleByArgument {}
