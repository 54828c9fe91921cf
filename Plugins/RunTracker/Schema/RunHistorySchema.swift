import Foundation
import GRDB
import MeridianStore

/// The tables of run history, analysis and records, migrated under plugin name "run-history".
///
/// They sit beside the run tracker's `runs` and `run_points` (migrated by `RunSchema`, which must run first):
/// - `run_edits`: every change of a run's name or notes, with the old and new value.
/// - `run_progress`: per run, a packed array of (seconds since start, cumulative metres) of the accepted
///   points and one of its pauses (start, end), written at save time; splits and best efforts are sweeps over
///   them, never over `run_points`.
/// - `run_best_efforts`: per run, the best effort of each record its activity keeps (`RecordDistance.kept(for:)`).
/// - `record_history`: every personal record (of its activity) when it was set. It has no foreign key: it outlives
///   the run.
/// - routes, tracks, segments and segment efforts: see `RouteSchema`.
/// - `run_training_load`: per saved run, its training load (TRIMP or rTSS) and the inputs it came from.
/// - goals and the periods they were reached in: see `GoalSchema`.
package enum RunHistorySchema {
    /// The history's migrations, oldest first; they need the run tracker's (`RunSchema.schema`) applied before
    /// (`RunTrackerSchema` applies both in that order).
    package static var schema: PluginSchema {
        PluginSchema(plugin: "run-history") { migrations in
            migrations.register("v1-edits-progress-records") { db in
                try db.execute(
                    sql: """
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
            migrations.register("v2-routes-segments") { db in
                // Runs saved before get their tracks and routes now, with the default route_match_m.
                try RouteSchema.create(db)
                try RouteBook.rebuild(matcher: RouteMatcher(), in: db)
            }
            migrations.register("v3-records-per-activity") { db in
                // Records are kept per activity (rides and hikes too): every saved run's efforts are recomputed.
                try db.execute(
                    sql: """
                        ALTER TABLE run_best_efforts ADD COLUMN distance_m REAL;
                        ALTER TABLE record_history ADD COLUMN activity TEXT NOT NULL DEFAULT 'run';
                        ALTER TABLE record_history ADD COLUMN distance_m REAL;
                        ALTER TABLE record_history ADD COLUMN previous_distance_m REAL;
                        """)
                try RecordBook.rebuild(in: db)
            }
            migrations.register("v4-progress-pauses") { db in
                // Splits leave pauses out: every saved run's pauses are read from its points once.
                try db.execute(sql: "ALTER TABLE run_progress ADD COLUMN pauses BLOB")
                let runs = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT run_progress.run_id, runs.started_at FROM run_progress JOIN runs ON runs.id = run_progress.run_id
                        """)
                for run in runs {
                    let id: String = run[0]
                    let progress = try ProgressStore.build(
                        runID: id, start: Date(timeIntervalSince1970: run[1]), in: db)
                    try db.execute(
                        sql: "UPDATE run_progress SET pauses = ? WHERE run_id = ?",
                        arguments: [progress.packedPauses, id])
                }
            }
            migrations.register("v5-training-load") { db in
                // Filled when first asked for (`TrainingBook.refresh`), with the inputs each load was computed from.
                try db.execute(
                    sql: """
                        CREATE TABLE run_training_load (
                            run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
                            load REAL,
                            method TEXT CHECK (method IN ('trimp', 'rtss')),
                            threshold_mps REAL,
                            inputs TEXT NOT NULL
                        ) WITHOUT ROWID
                        """)
            }
            migrations.register("v6-goals") { db in
                try GoalSchema.create(db)
            }
        }
    }
}
