import GRDB

/// The tables of gear, created by the run tracker's migration "v5-gear":
/// - `gear`: one row per pair of shoes or bike: name (unique), activity, start and retirement distance, whether it is
///   its activity's default (at most one each), when it was retired.
/// - `run_gear`: the item a run used (at most one per run); it goes with the run or the item.
enum GearSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE gear (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    activity TEXT NOT NULL,
                    start_distance_m REAL NOT NULL DEFAULT 0,
                    retire_distance_m REAL,
                    is_default INTEGER NOT NULL DEFAULT 0,
                    retired_at REAL,
                    created_at REAL NOT NULL
                );
                CREATE UNIQUE INDEX gear_default_per_activity ON gear (activity) WHERE is_default = 1;
                CREATE TABLE run_gear (
                    run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
                    gear_id INTEGER NOT NULL REFERENCES gear(id) ON DELETE CASCADE
                ) WITHOUT ROWID;
                CREATE INDEX run_gear_by_gear ON run_gear (gear_id);
                """)
    }
}
