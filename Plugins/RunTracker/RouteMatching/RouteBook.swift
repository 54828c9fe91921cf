import Foundation
import GRDB
import MeridianCore

/// Routes over the store: every saved run's track (`run_tracks`) and the route it belongs to.
///
/// A route is represented by its earliest run (deleted runs included until they are purged): a run joins the
/// first route, by id, whose representative it matches (`RouteMatcher`), or founds a new one. Candidates come from
/// the index on the start position (a box of the matcher's end distance around the run's start), so grouping
/// never compares a run with every other. Deleting a run only hides it; restoring shows it again in its route.
package enum RouteBook {
    /// Stores run `run`'s track, replacing an earlier one, and files the run in a route; returns the route id.
    @discardableResult
    static func file(_ track: RunTrack, run: SavedRun, matcher: RouteMatcher, in db: Database) throws -> Int64 {
        var cache = TrackCache()
        try store(track, runID: run.id, in: db)
        return try assign(runID: run.id, track: track, activity: run.activity, matcher: matcher, in: db, cache: &cache)
    }

    static func store(_ track: RunTrack, runID: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO run_tracks (run_id, route_id, start_lat, start_lon, finish_lat, finish_lon,
                    min_lat, max_lat, min_lon, max_lon, path)
                VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                runID, track.start.latitude, track.start.longitude, track.finish.latitude, track.finish.longitude,
                track.box.minLatitude, track.box.maxLatitude, track.box.minLongitude, track.box.maxLongitude,
                track.packed
            ])
    }

    /// Puts run `runID` (whose track is stored) in the first route whose representative it matches, or in a new one.
    /// Candidates are the routes with a run that starts and finishes within the matcher's end distance of this
    /// run's start and finish (boxes on the indexed start and on the finish).
    @discardableResult
    private static func assign(
        runID: String, track: RunTrack, activity: Activity?, matcher: RouteMatcher, in db: Database,
        cache: inout TrackCache
    ) throws -> Int64 {
        let activityText = activity?.rawValue ?? Activity.other.rawValue
        var conditions = ["t.route_id IS NOT NULL", "t.run_id <> ?", "r.activity = ?"]
        var arguments: [DatabaseValueConvertible] = [runID, activityText]
        for (end, center) in [("start", track.start), ("finish", track.finish)] {
            let box = Geodesic.wgs84.boundingBox(center: center, radius: matcher.endDistance)
            let longitudes = box.longitudeRanges.map { _ in "t.\(end)_lon BETWEEN ? AND ?" }.joined(separator: " OR ")
            conditions.append("t.\(end)_lat BETWEEN ? AND ? AND (\(longitudes))")
            arguments += [box.minLatitude, box.maxLatitude]
            for range in box.longitudeRanges { arguments += [range.lowerBound, range.upperBound] }
        }
        let candidates = try Int64.fetchAll(
            db,
            sql: """
                SELECT DISTINCT t.route_id FROM run_tracks t JOIN runs r ON r.id = t.run_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY t.route_id
                """, arguments: StatementArguments(arguments))
        var routeID: Int64?
        for candidate in candidates {
            guard let reference = try representative(of: candidate, excluding: runID, in: db, cache: &cache),
                matcher.couldMatch(reference.track, track)
            else { continue }
            if matcher.sameRoute(
                cache.densified(runID: reference.runID, track: reference.track),
                cache.densified(runID: runID, track: track))
            {
                routeID = candidate
                break
            }
        }
        let route: Int64
        if let routeID {
            route = routeID
        } else {
            try db.execute(
                sql: "INSERT INTO routes (activity, created_at) VALUES (?, ?)",
                arguments: [activityText, Date().timeIntervalSince1970])
            route = db.lastInsertedRowID
            cache.founders[route] = runID
        }
        try db.execute(sql: "UPDATE run_tracks SET route_id = ? WHERE run_id = ?", arguments: [route, runID])
        return route
    }

    /// The earliest run of route `routeID` other than `runID`, with its track: the route's founder during a rebuild
    /// (runs are regrouped oldest first), else read from the store.
    private static func representative(
        of routeID: Int64, excluding runID: String, in db: Database,
        cache: inout TrackCache
    ) throws -> (runID: String, track: RunTrack)? {
        if let founder = cache.founders[routeID], founder != runID, let track = cache.stored(runID: founder) {
            return (founder, track)
        }
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT t.run_id, t.path FROM run_tracks t JOIN runs r ON r.id = t.run_id
                    WHERE t.route_id = ? AND t.run_id <> ? ORDER BY r.started_at, r.id LIMIT 1
                    """, arguments: [routeID, runID])
        else { return nil }
        return (row[0], try cache.track(runID: row[0], packed: row[1]))
    }

    /// Regroups every stored track from scratch with `matcher` (after `route_match_m` changed), oldest run first,
    /// storing the tracks of saved runs that have none. Route ids are new afterwards. Returns the number of routes.
    @discardableResult
    package static func rebuild(matcher: RouteMatcher, in db: Database) throws -> Int {
        let missing = try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, r.started_at FROM runs r LEFT JOIN run_tracks t ON t.run_id = r.id
                WHERE r.state = 'stopped' AND t.run_id IS NULL
                """)
        for row in missing {
            let points = try RunPoints.load(db, runID: row[0])
            if let track = RunTrack(samples: TrackSamples(points: points, start: Date(timeIntervalSince1970: row[1]))) {
                try store(track, runID: row[0], in: db)
            }
        }
        try db.execute(sql: "UPDATE run_tracks SET route_id = NULL")
        try db.execute(sql: "DELETE FROM routes")
        var cache = TrackCache()
        let tracks = try Row.fetchAll(
            db,
            sql: """
                SELECT t.run_id, t.path, r.activity FROM run_tracks t JOIN runs r ON r.id = t.run_id
                ORDER BY r.started_at, r.id
                """)
        for row in tracks {
            let track = try cache.track(runID: row[0], packed: row[1])
            try assign(
                runID: row[0], track: track, activity: Activity(rawValue: row[2]), matcher: matcher, in: db,
                cache: &cache)
        }
        return try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT route_id) FROM run_tracks WHERE route_id IS NOT NULL")
            ?? 0
    }

    /// Removes routes that no stored run belongs to any more (their runs were purged).
    static func removeEmptyRoutes(in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM routes WHERE id NOT IN (SELECT route_id FROM run_tracks WHERE route_id IS NOT NULL)")
    }

    /// The route of run `runID`, if it has one.
    static func routeID(of runID: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT route_id FROM run_tracks WHERE run_id = ?", arguments: [runID])
    }

    // MARK: Reading

    /// Routes with at least `minimumRuns` saved (not deleted) runs, optionally of one activity; the route with the
    /// most recent run first. Each route lists its runs newest first.
    package static func list(minimumRuns: Int = 2, activity: Activity? = nil, in db: Database) throws -> [Route] {
        try routes(routeID: nil, activity: activity, in: db)
            .filter { $0.runCount >= minimumRuns }
            .sorted { ($0.latest.startedAt, $0.id) > ($1.latest.startedAt, $1.id) }
    }

    /// Route `id` with its runs ranked, fastest first.
    package static func route(id: Int64, in db: Database) throws -> Route {
        guard var route = try routes(routeID: id, activity: nil, in: db).first else {
            throw ProgressError.routeNotFound(id: String(id))
        }
        route.runs.sort { ($0.rank, $0.runID) < ($1.rank, $1.runID) }
        return route
    }

    private static func routes(routeID: Int64?, activity: Activity?, in db: Database) throws -> [Route] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT t.route_id, ro.activity, r.id, r.name, r.started_at, r.elapsed_s, r.distance_m
                FROM run_tracks t JOIN runs r ON r.id = t.run_id JOIN routes ro ON ro.id = t.route_id
                WHERE r.deleted_at IS NULL AND r.state = 'stopped' AND (?1 IS NULL OR t.route_id = ?1)
                    AND (?2 IS NULL OR ro.activity = ?2)
                ORDER BY t.route_id, r.started_at, r.id
                """, arguments: [routeID, activity?.rawValue])
        var grouped: [(id: Int64, activity: String, runs: [RouteRun])] = []
        for row in rows {
            let id: Int64 = row[0]
            let run = RouteRun(
                runID: row[2], name: row[3], startedAt: Date(timeIntervalSince1970: row[4]),
                elapsedTime: row[5] ?? 0, distance: row[6] ?? 0, rank: 0)
            if grouped.last?.id == id {
                grouped[grouped.count - 1].runs.append(run)
            } else {
                grouped.append((id, row[1], [run]))
            }
        }
        return grouped.compactMap {
            Route(id: $0.id, activity: Activity(rawValue: $0.activity) ?? .other, chronological: $0.runs)
        }
    }
}

/// Decoded tracks and densified paths by run id, so that a representative compared many times is decoded and
/// densified once, and during a rebuild the founder of each route.
struct TrackCache {
    private var tracks: [String: RunTrack] = [:]
    private var densifiedPaths: [String: [Coordinate]] = [:]
    /// Route id → the run that founded it in this pass.
    var founders: [Int64: String] = [:]

    /// The track stored as `packed` for run `runID`.
    mutating func track(runID: String, packed: Data) throws -> RunTrack {
        if let track = tracks[runID] { return track }
        guard let track = RunTrack(packed: packed) else {
            throw RunStoreError.corruptRow(runID: runID, detail: "its stored track is not a list of coordinates")
        }
        tracks[runID] = track
        return track
    }

    /// The track of run `runID` if it was decoded in this pass.
    func stored(runID: String) -> RunTrack? { tracks[runID] }

    /// Run `runID`'s densified path (`RouteMatcher.densified`).
    mutating func densified(runID: String, track: RunTrack) -> [Coordinate] {
        if let path = densifiedPaths[runID] { return path }
        let path = RouteMatcher.densified(track)
        densifiedPaths[runID] = path
        return path
    }
}
