import Foundation
import MeridianCLI
import MeridianCore

/// What `meridian runs import` did, file by file: printed as text, or as JSON with `--json`.
struct ImportReport: Encodable {
    var imported: [RunSummary] = []
    var duplicates: [Duplicate] = []
    var failed: [Failure] = []

    struct Duplicate: Encodable {
        var file: String
        var run: RunSummary
        var existingID: String
    }

    struct Failure: Encodable {
        var file: String
        var error: String
    }

    enum CodingKeys: String, CodingKey { case imported, duplicates, failed }

    mutating func add(_ outcomes: [RunImporter.Outcome], file: String) {
        for outcome in outcomes {
            switch outcome {
            case .imported(let run):
                imported.append(run.summary)
            case .duplicate(let run, let existing):
                duplicates.append(Duplicate(file: file, run: run, existingID: existing.id))
            }
        }
    }

    /// Prints every run (in full when `detailed`), every duplicate and failure, and the totals.
    func print(style: RunTextStyle, detailed: Bool) {
        let units = style.units
        for run in imported {
            if detailed {
                Swift.print(RunText.summary(run, style: style).joined(separator: "\n"))
                if run.state == .draft { Swift.print(LiveRunController.stopResult(run).message) }
            } else {
                Swift.print("imported  \(run.name): \(DistanceFormat.string(metres: run.distance, units: units)) in \(TimeFormat.duration(seconds: run.timerTime)) (\(run.activity.rawValue), id \(run.id))")
            }
        }
        for duplicate in duplicates {
            Swift.print("skipped   \(duplicate.file): the same run is stored as \(duplicate.existingID) (use --allow-duplicates to import it again)")
        }
        for failure in failed {
            Standard.error("meridian: \(failure.error)")
        }
        Swift.print("imported \(Counted.string(imported.count, "run")), skipped \(Counted.string(duplicates.count, "duplicate")), "
                    + "\(Counted.string(failed.count, "file")) failed")
    }
}
