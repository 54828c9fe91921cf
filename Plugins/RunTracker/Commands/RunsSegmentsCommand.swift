import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs segments add|list|show|delete|efforts`.
struct RunsSegmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segments",
        abstract: "Named stretches of path to race yourself on, and every run's efforts on them.",
        subcommands: [
            SegmentsAddCommand.self, SegmentsListCommand.self, SegmentsShowCommand.self,
            SegmentsDeleteCommand.self, SegmentsEffortsCommand.self
        ])
}

/// `meridian runs segments add NAME --run ID (--from-km X --to-km Y | --from LAT,LON --to LAT,LON)`.
struct SegmentsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a segment taken from a saved run; efforts of every stored run are found at once.",
        discussion: """
            The segment follows the run from --from-km to --to-km of its distance, or from its point nearest \
            --from to its next point nearest --to (each within 50 m of the run). It must be at least 100 m long. \
            A run has an effort when it passes the start, follows the path forwards within 25 m of it (GPS \
            drifting up to 50 m aside for at most 15 s is forgiven) and reaches the end.
            """)
    @OptionGroup var store: RunsStoreOptions
    @OptionGroup var privacy: PrivacyFlags
    @Argument(help: "The segment's name (unique).") var name: String
    @Option(name: .long, help: "The run to take the path from.") var run: String
    @Option(name: .customLong("from-km"), help: "Start, kilometres into the run.") var fromKm: Double?
    @Option(name: .customLong("to-km"), help: "End, kilometres into the run.") var toKm: Double?
    @Option(name: .long, help: "Start near this point (LAT,LON).") var from: String?
    @Option(name: .long, help: "End near this point (LAT,LON).") var to: String?

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let segment = try await usageErrors {
                let bounds = try SegmentRequest.bounds(
                    fromKm: fromKm, toKm: toKm, from: from, to: to,
                    names: ("--from-km", "--to-km", "--from", "--to"))
                let request = SegmentRequest(name: name, runID: run, bounds: bounds)
                return try await opened.database.write { [privacy] db in
                    try SegmentBook.add(request, in: db).hiding(PrivacyZones.load(db, keepPrivate: privacy.keepPrivate))
                }
            }
            if store.json { return try store.printJSON(segment) }
            print("added " + SegmentsListCommand.line(segment, settings: settings))
        }
    }
}

/// `meridian runs segments list`.
struct SegmentsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List segments by name.")
    @OptionGroup var store: RunsStoreOptions
    @OptionGroup var privacy: PrivacyFlags

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let segments = try await opened.database.read { [privacy] db in
                let zones = try PrivacyZones.load(db, keepPrivate: privacy.keepPrivate)
                return try SegmentBook.list(in: db).map { $0.hiding(zones) }
            }
            if store.json { return try store.printJSON(SegmentList(segments: segments)) }
            if segments.isEmpty {
                print("No segments; add one with `meridian runs segments add NAME --run ID --from-km X --to-km Y`.")
            }
            for segment in segments { print(Self.line(segment, settings: settings)) }
        }
    }

    static func line(_ segment: Segment, settings: ProgressSettings) -> String {
        let best =
            segment.best.map {
                "best \(TimeFormat.duration(seconds: $0.elapsedTime)) (\(LocalTime.day($0.startedAt, in: settings.timeZone)))"
            } ?? "no efforts"
        return
            "segment \(RunText.pad(String(segment.id), 4)) \(RunText.pad(segment.name, 28)) \(RunText.pad(segment.activity.rawValue, 5)) "
            + "\(RunText.pad(DistanceFormat.string(metres: segment.distance, units: settings.units), 8)) \(segment.effortCount) efforts  \(best)"
    }
}

/// `meridian runs segments show SEGMENT`.
struct SegmentsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a segment (by id or name).")
    @OptionGroup var store: RunsStoreOptions
    @OptionGroup var privacy: PrivacyFlags
    @Argument(help: "Segment id or name.") var segment: String

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let found = try await usageErrors {
                try await opened.database.read { [segment, privacy] db in
                    try SegmentBook.segment(segment, in: db).hiding(
                        PrivacyZones.load(db, keepPrivate: privacy.keepPrivate))
                }
            }
            if store.json { return try store.printJSON(found) }
            print(SegmentsListCommand.line(found, settings: settings))
            if let start = found.start, let finish = found.finish {
                print("from \(start) to \(finish), taken from run \(found.sourceRunID)")
            }
        }
    }
}

/// `meridian runs segments delete SEGMENT`.
struct SegmentsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a segment and its efforts.")
    @OptionGroup var store: RunsStoreOptions
    @OptionGroup var privacy: PrivacyFlags
    @Argument(help: "Segment id or name.") var segment: String

    func run() async throws {
        try await reportingFailures {
            let (opened, _) = try store.openProgress()
            let deleted = try await usageErrors {
                try await opened.database.write { [segment, privacy] db in
                    let zones = try PrivacyZones.load(db, keepPrivate: privacy.keepPrivate)
                    return try SegmentBook.delete(segment, in: db).hiding(zones)
                }
            }
            if store.json { return try store.printJSON(deleted) }
            print("deleted segment \(deleted.id) '\(deleted.name)' and its \(deleted.effortCount) efforts")
        }
    }
}

/// `meridian runs segments efforts SEGMENT`.
struct SegmentsEffortsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "efforts", abstract: "Every effort on a segment, fastest first.")
    @OptionGroup var store: RunsStoreOptions
    @OptionGroup var privacy: PrivacyFlags
    @Argument(help: "Segment id or name.") var segment: String

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            let report = try await usageErrors {
                try await opened.database.read { [segment, privacy] db in
                    try SegmentBook.efforts(segment, in: db).hiding(
                        PrivacyZones.load(db, keepPrivate: privacy.keepPrivate))
                }
            }
            if store.json { return try store.printJSON(report) }
            print(SegmentsListCommand.line(report.segment, settings: settings))
            for effort in report.efforts {
                print(
                    "  \(RunText.pad("#\(effort.rank)", 5)) \(RunText.pad(TimeFormat.duration(seconds: effort.elapsedTime), 8)) "
                        + "\(RunText.pad(PaceOrSpeed.text(secondsPerKilometre: effort.pace, activity: report.segment.activity, units: settings.units), 10)) "
                        + "\(LocalTime.minute(effort.startedAt, in: settings.timeZone))  \(RunText.pad(effort.runName, 28))  \(effort.runID)"
                )
            }
        }
    }
}
