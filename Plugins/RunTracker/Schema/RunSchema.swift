import GRDB
import MeridianStore

/// The run tracker's tables, migrated under plugin name "run-tracker".
///
/// `runs` holds one row per run with its summary metrics and, while it is active,
/// the tracker's state as JSON (`live_state`) for restoring after a crash.
/// `run_points` holds every received fix with its segment, rejection reason, the run's distance at each accepted
/// point and the sensor values; `run_laps` a run's laps (a device's or the lap button's); `gear` and `run_gear` shoes
/// and bikes (`GearSchema`).
package enum RunSchema {
    /// The run tracker's migrations, oldest first (`RunTrackerSchema` applies them, before the history's).
    package static var schema: PluginSchema {
        PluginSchema(plugin: "run-tracker") { migrations in
            migrations.register("v1-runs-and-points") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE runs (
                            id TEXT PRIMARY KEY,
                            name TEXT NOT NULL,
                            notes TEXT NOT NULL DEFAULT '',
                            activity TEXT NOT NULL,
                            state TEXT NOT NULL CHECK (state IN ('tracking', 'paused', 'stopped', 'draft')),
                            started_at REAL NOT NULL,
                            ended_at REAL,
                            distance_m REAL,
                            elapsed_s REAL,
                            timer_s REAL,
                            moving_s REAL,
                            avg_pace_s_per_km REAL,
                            max_speed_mps REAL,
                            ascent_m REAL,
                            descent_m REAL,
                            points INTEGER,
                            rejected_points INTEGER,
                            segments INTEGER,
                            deleted_at REAL,
                            updated_at REAL,
                            live_state TEXT
                        );
                        CREATE INDEX runs_started_at ON runs (started_at DESC) WHERE deleted_at IS NULL;
                        CREATE INDEX runs_active ON runs (state) WHERE state IN ('tracking', 'paused');
                        CREATE TABLE run_points (
                            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                            seq INTEGER NOT NULL,
                            time REAL NOT NULL,
                            lat REAL,
                            lon REAL,
                            altitude REAL,
                            speed REAL,
                            accuracy REAL,
                            segment INTEGER NOT NULL,
                            rejection TEXT,
                            PRIMARY KEY (run_id, seq)
                        ) WITHOUT ROWID;
                        """)
            }
            migrations.register("v2-sensors-and-point-distance") { db in
                try db.execute(
                    sql: """
                        ALTER TABLE runs ADD COLUMN distance_source TEXT NOT NULL DEFAULT 'none'
                            CHECK (distance_source IN ('gps', 'sensor', 'none'));
                        ALTER TABLE runs ADD COLUMN avg_heart_rate_bpm REAL;
                        ALTER TABLE runs ADD COLUMN max_heart_rate_bpm REAL;
                        ALTER TABLE runs ADD COLUMN avg_cadence_spm REAL;
                        ALTER TABLE runs ADD COLUMN avg_power_w REAL;
                        ALTER TABLE runs ADD COLUMN device_name TEXT;
                        ALTER TABLE runs ADD COLUMN device_distance_m REAL;
                        ALTER TABLE runs ADD COLUMN device_timer_s REAL;
                        ALTER TABLE run_points ADD COLUMN distance_m REAL;
                        ALTER TABLE run_points ADD COLUMN heart_rate REAL;
                        ALTER TABLE run_points ADD COLUMN cadence REAL;
                        ALTER TABLE run_points ADD COLUMN power REAL;
                        ALTER TABLE run_points ADD COLUMN temperature REAL;
                        UPDATE runs SET distance_source = 'gps' WHERE distance_m > 0;
                        """)
                try PointDistanceBackfill.run(db)
            }
            migrations.register("v3-salvaged-imports") { db in
                try db.execute(
                    sql: """
                        ALTER TABLE runs ADD COLUMN salvaged_at_byte INTEGER;
                        ALTER TABLE runs ADD COLUMN salvage_reason TEXT;
                        """)
            }
            migrations.register("v4-device-laps") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE run_laps (
                            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                            idx INTEGER NOT NULL,
                            start REAL NOT NULL,
                            timer_s REAL,
                            distance_m REAL,
                            avg_heart_rate_bpm REAL,
                            max_heart_rate_bpm REAL,
                            trigger TEXT,
                            PRIMARY KEY (run_id, idx)
                        ) WITHOUT ROWID;
                        """)
            }
            migrations.register("v5-gear") { db in
                try GearSchema.create(db)
            }
        }
    }
}
