import Foundation
import GRDB
import MeridianCore

/// The current VDOT: the best VDOT of the running best efforts (1 mile to marathon) of the runs in the 6 weeks up
/// to a moment (by default the latest run with such an effort, so that an imported history whose last run was a
/// short one still has a VDOT), with race predictions from it and from Riegel's formula.
package enum VdotBook {
    /// How far back efforts count.
    static let window: TimeInterval = 42 * 86_400
    /// The efforts VDOT is taken from: the kept running distances from the mile (the 1 km is shorter than the
    /// shortest race Daniels' tables start at, 1,500 m).
    static let distances: [RecordDistance] = [.mile, .fiveKilometres, .tenKilometres, .halfMarathon, .marathon]
    /// The distances predicted: 1,500 m, 5 km, 10 km, half marathon, marathon.
    static let predicted: [Double] = [1500, 5000, 10_000, 21_097.5, 42_195]

    /// The report at `at` (the latest run with an effort when `nil`), or `nil` when no run of that window has one.
    static func current(at: Date?, in db: Database) throws -> VdotReport? {
        let placeholders = distances.map { _ in "?" }.joined(separator: ", ")
        let names = StatementArguments(distances.map(\.rawValue))
        let end: Double
        if let at {
            end = at.timeIntervalSince1970
        } else {
            let latest = try Double.fetchOne(
                db,
                sql: """
                    SELECT MAX(r.started_at) FROM runs r JOIN run_best_efforts e ON e.run_id = r.id
                    WHERE \(RecordBook.countingRuns) AND r.activity = 'run' AND e.distance IN (\(placeholders))
                    """, arguments: names)
            guard let latest else { return nil }
            end = latest
        }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.run_id, e.distance_m, e.elapsed_s, r.started_at FROM run_best_efforts e JOIN runs r ON r.id = e.run_id
                WHERE \(RecordBook.countingRuns) AND r.activity = 'run' AND r.started_at > ? AND r.started_at <= ?
                  AND e.distance IN (\(placeholders))
                ORDER BY r.started_at, e.distance_m
                """, arguments: StatementArguments([end - window, end] as [Double]) + names)
        var best: (vdot: Double, effort: VdotReport.Effort)?
        for row in rows {
            let effort = VdotReport.Effort(
                runId: row["run_id"], distanceM: row["distance_m"], elapsedS: row["elapsed_s"],
                startedAt: Date(timeIntervalSince1970: row["started_at"]))
            guard let vdot = DanielsGilbert.vdot(distance: effort.distanceM, time: effort.elapsedS) else { continue }
            if vdot > best?.vdot ?? 0 { best = (vdot, effort) }
        }
        guard let best else { return nil }
        return VdotReport(
            vdot: best.vdot, from: best.effort,
            predictions: predicted.map { distance in
                VdotReport.Prediction(
                    distanceM: distance, timeSVdot: DanielsGilbert.raceTime(distance: distance, vdot: best.vdot),
                    timeSRiegel: Riegel.time(over: distance, from: best.effort.distanceM, time: best.effort.elapsedS))
            })
    }
}

/// `GET /v1/vdot` and `meridian runs vdot --json`.
package struct VdotReport: Sendable, Equatable, Encodable {
    /// The effort the VDOT comes from.
    package struct Effort: Sendable, Equatable, Encodable {
        package var runId: String
        package var distanceM: Double
        package var elapsedS: Double
        package var startedAt: Date
    }

    /// A predicted race time from the VDOT and from Riegel's formula on the effort.
    package struct Prediction: Sendable, Equatable, Encodable {
        package var distanceM: Double
        @NullWhenAbsent package var timeSVdot: Double?
        package var timeSRiegel: Double
    }

    package var vdot: Double
    package var from: Effort
    package var predictions: [Prediction]
}
