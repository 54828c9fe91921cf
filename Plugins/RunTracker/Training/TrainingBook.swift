import Foundation
import GRDB
import MeridianCore

/// Training load per run, kept in `run_training_load` beside the run, with the inputs it was computed from: a load
/// that is missing (a run saved since) or whose inputs changed (another `max_heart_rate`, a new threshold estimate) is
/// computed when next asked for, and stored then.
package enum TrainingBook {
    /// A saved run's load as the current inputs give it.
    struct RunLoad: Sendable {
        var runID: String
        var startedAt: Date
        /// `nil` without heart rate and, for runs, without a threshold pace.
        var load: TrainingLoad?
        /// What the load was computed from (heart rates and sex for TRIMP, the threshold for rTSS).
        var inputs: String
        /// Computed now: the stored load was missing or came from other inputs.
        var changed: Bool
    }

    /// The loads of the saved runs (or of `runID` alone), oldest first: the stored one where its inputs are the
    /// current ones, else computed now (read only; `keep` stores them).
    static func loads(settings: TrainingSettings, runID: String? = nil, in db: Database) throws -> [RunLoad] {
        let estimated = settings.thresholdSpeed == nil ? try VdotBook.current(at: nil, in: db) : nil
        let threshold = settings.thresholdSpeed ?? estimated.flatMap { DanielsGilbert.thresholdSpeed(vdot: $0.vdot) }
        let heartRateInputs = "trimp \(settings.maxHeartRate) \(settings.restingHeartRate) \(settings.sex.rawValue)"
        let paceInputs = "rtss " + (threshold.map { String(format: "%.4f", $0) } ?? "none")
        var sql = """
            SELECT r.id, r.started_at, r.avg_heart_rate_bpm IS NOT NULL AS heart, t.inputs, t.load, t.method, t.threshold_mps
            FROM runs r LEFT JOIN run_training_load t ON t.run_id = r.id WHERE \(RecordBook.countingRuns)
            """
        var arguments: StatementArguments = []
        if let runID {
            sql += " AND r.id = ?"
            arguments = [runID]
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY r.started_at, r.id", arguments: arguments).compactMap { row in
            let id: String = row["id"]
            let startedAt = Date(timeIntervalSince1970: row["started_at"])
            let inputs = (row["heart"] as Bool) ? heartRateInputs : paceInputs
            if (row["inputs"] as String?) == inputs {
                var load: TrainingLoad?
                if let value: Double = row["load"],
                    let method = (row["method"] as String?).flatMap(TrainingLoad.Method.init(rawValue:))
                {
                    load = TrainingLoad(load: value, method: method, thresholdSpeed: row["threshold_mps"])
                }
                return RunLoad(runID: id, startedAt: startedAt, load: load, inputs: inputs, changed: false)
            }
            guard let run = try RunSummary.fetch(db, id: id) else { return nil }
            let load = TrainingLoad.of(
                run, points: try RunPoints.load(db, runID: id), settings: settings, estimatedThreshold: threshold)
            return RunLoad(runID: id, startedAt: startedAt, load: load, inputs: inputs, changed: true)
        }
    }

    /// Stores the loads computed now beside their runs. A store that refuses writes keeps the old ones: they are
    /// computed again when next asked for, and the answer that computed them is not lost.
    static func keep(_ loads: [RunLoad], in database: any DatabaseWriter) async {
        let changed = loads.filter(\.changed)
        guard !changed.isEmpty else { return }
        _ = try? await database.write { db in
            for entry in changed {
                try db.execute(
                    sql: """
                        INSERT INTO run_training_load (run_id, load, method, threshold_mps, inputs) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (run_id) DO UPDATE SET load = excluded.load, method = excluded.method,
                            threshold_mps = excluded.threshold_mps, inputs = excluded.inputs
                        """,
                    arguments: [
                        entry.runID, entry.load?.load, entry.load?.method.rawValue, entry.load?.thresholdSpeed,
                        entry.inputs
                    ])
            }
        }
    }

    /// The load of saved run `runID` (stored beside it when computed now); `nil` for a run without one or not saved.
    static func load(of runID: String, settings: TrainingSettings, in database: any DatabaseWriter) async throws
        -> TrainingLoad?
    {
        let loads = try await database.read { db in try Self.loads(settings: settings, runID: runID, in: db) }
        await keep(loads, in: database)
        return loads.first?.load
    }

    /// Fitness, fatigue and form over the saved runs' loads (stored when computed now): see `fitness(_:from:to:timeZone:now:)`.
    static func fitness(
        settings: TrainingSettings, from: Date?, to: Date?, timeZone: TimeZone, now: Date,
        in database: any DatabaseWriter
    ) async throws -> [FitnessDay] {
        let loads = try await database.read { db in try Self.loads(settings: settings, in: db) }
        await keep(loads, in: database)
        return fitness(loads, from: from, to: to, timeZone: timeZone, now: now)
    }

    /// Fitness, fatigue and form day by day in `timeZone` from the first saved run, shown between `from` and `to`
    /// (dates in the range; by default the 90 days up to today, or up to the latest run when it is more than 42 days
    /// old, so an imported history opens at its data).
    static func fitness(_ runs: [RunLoad], from: Date?, to: Date?, timeZone: TimeZone, now: Date) -> [FitnessDay] {
        guard let first = runs.first?.startedAt, let last = runs.last?.startedAt else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var loads: [String: Double] = [:]
        for run in runs {
            loads[LocalTime.day(run.startedAt, in: timeZone), default: 0] += run.load?.load ?? 0
        }
        let stale = now.timeIntervalSince(last) > Fitness.chronicDays * 86_400
        let end = calendar.startOfDay(for: to ?? (stale ? last : now))
        let start =
            from.map { calendar.startOfDay(for: $0) } ?? calendar.date(byAdding: .day, value: -89, to: end) ?? end
        var series: [(date: String, load: Double)] = []
        var day = calendar.startOfDay(for: first)
        while day <= end {
            let date = LocalTime.day(day, in: timeZone)
            series.append((date, loads[date] ?? 0))
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        let shownFrom = LocalTime.day(start, in: timeZone)
        return Fitness.days(series).filter { $0.date >= shownFrom }
    }
}

/// One day of fitness (CTL), fatigue (ATL) and form (TSB = CTL − ATL), after the day's load.
package struct FitnessDay: Sendable, Equatable, Encodable {
    package var date: String
    package var load: Double
    package var ctl: Double
    package var atl: Double
    package var tsb: Double
}

/// Chronic and acute training load: exponentially weighted averages of the daily load over 42 and 7 days.
package enum Fitness {
    package static let chronicDays = 42.0
    package static let acuteDays = 7.0

    /// The days of `loads` (one per consecutive day, rest days 0) with CTL and ATL starting from 0:
    /// x_today = x_yesterday + (load − x_yesterday) / days.
    package static func days(_ loads: [(date: String, load: Double)]) -> [FitnessDay] {
        var ctl = 0.0
        var atl = 0.0
        return loads.map { day in
            ctl += (day.load - ctl) / chronicDays
            atl += (day.load - atl) / acuteDays
            return FitnessDay(date: day.date, load: day.load, ctl: ctl, atl: atl, tsb: ctl - atl)
        }
    }
}
