import Foundation
import MeridianCLI
import MeridianCore

/// What `meridian runs import` did, file by file: printed as text, or as JSON with `--json`.
struct ImportReport: Encodable {
    var imported: [RunSummary] = []
    var duplicates: [Duplicate] = []
    var skipped: [Skipped] = []
    var inferred: [RunImporter.Inferred] = []
    /// The gear each imported run got (its activity's default item), once every file is in.
    var gear: [RunGearReply] = []
    var failed: [Failure] = []

    struct Duplicate: Encodable {
        var file: String
        var run: RunSummary
        var existingID: String
    }

    struct Skipped: Encodable {
        var file: String
        var run: RunSummary
        var reason: String
    }

    struct Failure: Encodable {
        var file: String
        var error: String
        /// A damaged FIT file whose first part `--salvage` would import.
        var salvageable = false
    }

    enum CodingKeys: String, CodingKey { case imported, duplicates, skipped, inferred, gear, failed }

    mutating func add(_ outcomes: [RunImporter.Outcome], file: String) {
        for outcome in outcomes {
            switch outcome {
            case .imported(let run):
                imported.append(run.summary)
                inferred += RunImporter.Inferred(run).map { [$0] } ?? []
            case .duplicate(let run, let existing):
                duplicates.append(Duplicate(file: file, run: run, existingID: existing.id))
            case .skipped(let run, let reason):
                skipped.append(Skipped(file: file, run: run, reason: reason))
            }
        }
    }

    /// Prints every run (in full when `detailed`, with its gear) with how its activity was inferred when the file
    /// named none, the runs that took their gear past its retirement distance, every duplicate, skipped activity and
    /// failure, and the totals.
    func print(style: RunTextStyle, detailed: Bool) {
        let units = style.units
        let inferences = Dictionary(inferred.map { ($0.runID, $0.inference) }, uniquingKeysWith: { first, _ in first })
        let gearOf = Dictionary(
            gear.compactMap { reply in reply.gear.map { (reply.runId, $0) } }, uniquingKeysWith: { first, _ in first })
        for run in imported {
            let activity = inferences[run.id].map { $0.text(units: units) } ?? run.activity.rawValue
            if detailed {
                Swift.print(RunText.summary(run, style: style).joined(separator: "\n"))
                if inferences[run.id] != nil { Swift.print("activity: \(activity) (set it with --activity)") }
                if let gear = gearOf[run.id] { Swift.print("gear: \(gear.text(units: units))") }
            } else {
                Swift.print(
                    "imported  \(run.name): \(DistanceFormat.string(metres: run.distance, units: units)) in \(TimeFormat.duration(seconds: run.timerTime)) (\(activity), id \(run.id))"
                )
            }
        }
        if !detailed {
            for run in imported {
                if let gear = gearOf[run.id], gear.passedRetirement {
                    Swift.print("gear      \(run.name): \(gear.text(units: units))")
                }
            }
        }
        for duplicate in duplicates {
            Swift.print(
                "skipped   \(duplicate.file): the same run is stored as \(duplicate.existingID) (use --allow-duplicates to import it again)"
            )
        }
        for skip in skipped {
            Swift.print("skipped   \(skip.file): \(skip.run.name) has nothing to save: \(skip.reason)")
        }
        for failure in failed where !failure.salvageable {
            Standard.error("meridian: \(failure.error)")
        }
        let salvageable = failed.filter(\.salvageable)
        for failure in salvageable {
            Standard.error("meridian: salvageable: \(failure.error)")
        }
        for run in imported {
            if let mark = run.salvaged { Swift.print("salvaged  \(run.name): \(RunText.salvage(mark))") }
        }
        let empty = skipped.isEmpty ? "" : "\(skipped.count) with nothing to save, "
        let failures =
            "\(Counted.string(failed.count, "file")) failed"
            + (salvageable.isEmpty
                ? ""
                : salvageable.count == failed.count
                    ? " (damaged but salvageable with --salvage)"
                    : " (\(salvageable.count) of them damaged but salvageable with --salvage)")
        Swift.print(
            "imported \(Counted.string(imported.count, "run")), skipped \(Counted.string(duplicates.count, "duplicate")), "
                + "\(empty)\(failures)")
    }
}
