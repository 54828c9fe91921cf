import GRDB

/// The tables of goals, created by the history migration "v6-goals":
/// - `goals`: a target of distance (metres) or moving time (seconds) per week, month or year for one activity.
/// - `goal_reached`: each period (by its start) in which a goal was reached, with the run that reached it, so the
///   `goal.reached` event goes out once per goal and period. It keeps no reference to the run.
enum GoalSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE goals (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    activity TEXT NOT NULL,
                    period TEXT NOT NULL CHECK (period IN ('week', 'month', 'year')),
                    metric TEXT NOT NULL CHECK (metric IN ('distance', 'time')),
                    target REAL NOT NULL CHECK (target > 0),
                    created_at REAL NOT NULL
                );
                CREATE TABLE goal_reached (
                    goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
                    period_start REAL NOT NULL,
                    reached_at REAL NOT NULL,
                    run_id TEXT NOT NULL,
                    PRIMARY KEY (goal_id, period_start)
                ) WITHOUT ROWID;
                """)
    }
}
