import GRDB

/// The tables of routes and segments, created by the history migration "v2-routes-segments":
/// - `routes`: one row per route (its activity); ids are never reused.
/// - `run_tracks`: per saved run, the simplified path and its ends and box, and the route it belongs to.
/// - `segments`: named stretches of path, kept when the run they were taken from is deleted.
/// - `segment_efforts`: every passage of a run over a segment, with its interpolated start and elapsed time.
enum RouteSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE routes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    activity TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE run_tracks (
                    run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
                    route_id INTEGER REFERENCES routes(id) ON DELETE SET NULL,
                    start_lat REAL NOT NULL,
                    start_lon REAL NOT NULL,
                    finish_lat REAL NOT NULL,
                    finish_lon REAL NOT NULL,
                    min_lat REAL NOT NULL,
                    max_lat REAL NOT NULL,
                    min_lon REAL NOT NULL,
                    max_lon REAL NOT NULL,
                    path BLOB NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX run_tracks_by_start ON run_tracks (start_lat, start_lon);
                CREATE INDEX run_tracks_by_route ON run_tracks (route_id);
                CREATE TABLE segments (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    activity TEXT NOT NULL,
                    source_run_id TEXT NOT NULL,
                    distance_m REAL NOT NULL,
                    min_lat REAL NOT NULL,
                    max_lat REAL NOT NULL,
                    min_lon REAL NOT NULL,
                    max_lon REAL NOT NULL,
                    path BLOB NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE segment_efforts (
                    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
                    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    start_offset_s REAL NOT NULL,
                    elapsed_s REAL NOT NULL,
                    PRIMARY KEY (segment_id, run_id, start_offset_s)
                ) WITHOUT ROWID;
                CREATE INDEX segment_efforts_by_run ON segment_efforts (run_id);
                """)
    }
}
