import GRDB
import MeridianStore

/// The tables of run history, analysis and records, migrated under plugin name "run-history".
///
/// They sit beside the run tracker's `runs` and `run_points` (migrated by `RunSchema`, which must run first):
/// - `run_edits`: every change of a run's name or notes, with the old and new value.
/// - `run_progress`: per run, a packed array of (seconds since start, cumulative metres) of the accepted
///   points, written at save time; splits and best efforts are sweeps over it, never over `run_points`.
/// - `run_best_efforts`: per run, the fastest time over each record distance (activity `run` only).
/// - `record_history`: every personal record when it was set. It has no foreign key: it outlives the run.
public enum RunHistorySchema {
    /// Creates or updates the tables in `store`; call after `RunSchema.migrate(store)`.
    public static func migrate(_ store: Store) throws(StoreError) {
        try store.migrate(plugin: "run-history") { migrations in
            migrations.register("v1-edits-progress-records") { db in
                try db.execute(sql: """
                    CREATE TABLE run_edits (
                        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                        field TEXT NOT NULL,
                        old_value TEXT NOT NULL,
                        new_value TEXT NOT NULL,
                        edited_at REAL NOT NULL
                    );
                    CREATE INDEX run_edits_by_run ON run_edits (run_id, edited_at);
                    CREATE TABLE run_progress (
                        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
                        samples BLOB NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE run_best_efforts (
                        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                        distance TEXT NOT NULL,
                        elapsed_s REAL NOT NULL,
                        start_offset_s REAL NOT NULL,
                        PRIMARY KEY (distance, run_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX run_best_efforts_by_run ON run_best_efforts (run_id);
                    CREATE TABLE record_history (
                        id INTEGER PRIMARY KEY,
                        distance TEXT NOT NULL,
                        elapsed_s REAL NOT NULL,
                        run_id TEXT NOT NULL,
                        run_name TEXT NOT NULL,
                        achieved_at REAL NOT NULL,
                        previous_elapsed_s REAL,
                        recorded_at REAL NOT NULL
                    );
                    CREATE INDEX record_history_by_run ON record_history (run_id);
                    CREATE INDEX runs_history_page ON runs (started_at DESC, id DESC) WHERE deleted_at IS NULL;
                    CREATE INDEX runs_deleted_at ON runs (deleted_at) WHERE deleted_at IS NOT NULL;
                    """)
            }
        }
    }

    /// Both the run tracker's and the history's migrations, in the required order.
    public static func migrateAll(_ store: Store) throws(StoreError) {
        try RunSchema.migrate(store)
        try migrate(store)
    }
}
