import Foundation
import GRDB
import MeridianCore

/// Two runs side by side. JSON: `{"a", "b", "differences", "unit", "splits_by", "splits", "same_route", "route_id",
/// "gap"}`: the two run objects, `differences` (B minus A of distance, elapsed, timer and moving time, average pace,
/// ascent, descent and max speed), the full splits in the configured unit (`km` or `mile`), whether both are on the
/// same route (and which), and along it the time gap: at every 100 m of A's path, B's time since its start minus
/// A's (`null` when the routes differ). On the same route the splits
/// are timed at the same places, every unit of A's path (`splits_by: "route"`); otherwise each run's splits come
/// from its own distance (`splits_by: "distance"`).
package struct RunComparison: Sendable, Encodable {
    package var a: RunSummary
    package var b: RunSummary
    package var differences: RunDifferences
    package var unit: String
    /// `route` or `distance`.
    package var splitsBy: String
    package var splits: [SplitComparison]
    package var sameRoute: Bool
    @NullWhenAbsent package var routeID: Int64?
    @NullWhenAbsent package var gap: [GapPoint]?

    enum CodingKeys: String, CodingKey {
        case a, b, differences, unit, splitsBy, splits, sameRoute
        case routeID = "routeId"
        case gap
    }

    /// Compares runs `a` and `b` (saved or drafts, not deleted), splits every `unitDistance` metres named `unit`.
    package static func make(_ a: String, _ b: String, unit: String, unitDistance: Double, in db: Database) throws
        -> RunComparison
    {
        let first = try RunHistory.liveRun(db, id: a), second = try RunHistory.liveRun(db, id: b)
        let routeA = try RouteBook.routeID(of: a, in: db), routeB = try RouteBook.routeID(of: b, in: db)
        var comparison = RunComparison(
            a: first, b: second, differences: RunDifferences(first, second), unit: unit,
            splitsBy: "distance", splits: [], sameRoute: routeA != nil && routeA == routeB,
            routeID: nil, gap: nil)
        if comparison.sameRoute,
            let shared = SharedRoute(
                TrackSamples(points: try RunPoints.load(db, runID: a), start: first.startedAt),
                TrackSamples(points: try RunPoints.load(db, runID: b), start: second.startedAt))
        {
            comparison.routeID = routeA
            comparison.gap = shared.gap
            comparison.splitsBy = "route"
            comparison.splits = shared.splits(every: unitDistance)
        } else {
            comparison.splits = SplitComparison.pair(
                try ProgressStore.load(runID: a, start: first.startedAt, in: db).splits(
                    every: unitDistance, unit: unit),
                try ProgressStore.load(runID: b, start: second.startedAt, in: db).splits(
                    every: unitDistance, unit: unit))
        }
        return comparison
    }
}

/// B minus A: `{"distance_m", "elapsed_s", "timer_s", "moving_s", "avg_pace_s_per_km", "ascent_m", "descent_m",
/// "max_speed_mps"}` (`avg_pace_s_per_km` is `null` when either run has no pace).
package struct RunDifferences: Sendable, Equatable, Codable {
    package var distance: Double
    package var elapsedTime: Double
    package var timerTime: Double
    package var movingTime: Double
    @NullWhenAbsent package var averagePace: Double?
    package var ascent: Double
    package var descent: Double
    package var maxSpeed: Double

    init(_ a: RunSummary, _ b: RunSummary) {
        distance = b.distance - a.distance
        elapsedTime = b.elapsedTime - a.elapsedTime
        timerTime = b.timerTime - a.timerTime
        movingTime = b.movingTime - a.movingTime
        averagePace = a.averagePace.flatMap { paceA in b.averagePace.map { $0 - paceA } }
        ascent = b.ascent - a.ascent
        descent = b.descent - a.descent
        maxSpeed = b.maxSpeed - a.maxSpeed
    }

    enum CodingKeys: String, CodingKey {
        case distance = "distanceM"
        case elapsedTime = "elapsedS"
        case timerTime = "timerS"
        case movingTime = "movingS"
        case averagePace = "avgPaceSPerKm"
        case ascent = "ascentM"
        case descent = "descentM"
        case maxSpeed = "maxSpeedMps"
    }
}

/// One full split: `{"index", "distance_m", "a_s", "b_s", "delta_s"}`: the distance at the split's end, each run's
/// time over it (`null` when that run did not cover it) and B minus A.
package struct SplitComparison: Sendable, Equatable, Codable {
    package var index: Int
    package var distance: Double
    @NullWhenAbsent package var a: Double?
    @NullWhenAbsent package var b: Double?
    @NullWhenAbsent package var delta: Double?

    enum CodingKeys: String, CodingKey {
        case index
        case distance = "distanceM"
        case a = "aS"
        case b = "bS"
        case delta = "deltaS"
    }

    /// The full splits of two tables of the same unit, side by side.
    static func pair(_ a: SplitTable, _ b: SplitTable) -> [SplitComparison] {
        let fullA = a.splits.filter { !$0.partial }, fullB = b.splits.filter { !$0.partial }
        return (0..<max(fullA.count, fullB.count)).map { index in
            let timeA = index < fullA.count ? fullA[index].timerTime : nil
            let timeB = index < fullB.count ? fullB[index].timerTime : nil
            return SplitComparison(
                index: index + 1, distance: Double(index + 1) * a.unitDistance, a: timeA, b: timeB,
                delta: timeA.flatMap { first in timeB.map { $0 - first } })
        }
    }
}
