import Foundation
import MeridianCore

/// A route: saved runs that followed the same path in the same direction (`RouteMatcher`).
///
/// JSON: `{"id", "activity", "name", "distance_m", "run_count", "best", "latest", "runs"}`; `name` and `distance_m`
/// are those of its earliest saved run, `best` is the run with the shortest elapsed time, `latest` the most recent.
package struct Route: Sendable, Equatable, Encodable {
    package var id: Int64
    package var activity: Activity
    package var name: String
    package var distance: Double
    package var runCount: Int
    package var best: RouteRun
    package var latest: RouteRun
    /// Newest first in a list of routes, fastest first in one route's detail.
    package var runs: [RouteRun]

    /// A route from its runs, oldest first (`nil` without runs); ranks the runs by elapsed time.
    init?(id: Int64, activity: Activity, chronological runs: [RouteRun]) {
        guard let first = runs.first, let latest = runs.last else { return nil }
        var ranked = runs.sorted { ($0.elapsedTime, $0.startedAt) < ($1.elapsedTime, $1.startedAt) }
        for index in ranked.indices { ranked[index].rank = index + 1 }
        let rank = Dictionary(uniqueKeysWithValues: ranked.map { ($0.runID, $0.rank) })
        self.id = id
        self.activity = activity
        name = first.name
        distance = first.distance
        runCount = runs.count
        best = ranked[0]
        self.latest = ranked.first { $0.runID == latest.runID } ?? latest
        self.runs = runs.reversed().map { run in
            var run = run
            run.rank = rank[run.runID] ?? 0
            return run
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, activity, name
        case distance = "distanceM"
        case runCount, best, latest, runs
    }
}

/// A run of a route: `{"run_id", "name", "started_at", "elapsed_s", "distance_m", "rank"}`; the
/// rank is by elapsed time (pauses count, as for records), 1 for the fastest.
package struct RouteRun: Sendable, Equatable, Encodable {
    package var runID: String
    package var name: String
    package var startedAt: Date
    package var elapsedTime: Double
    package var distance: Double
    package var rank: Int

    enum CodingKeys: String, CodingKey {
        case runID = "runId"
        case name, startedAt
        case elapsedTime = "elapsedS"
        case distance = "distanceM"
        case rank
    }
}
