import GRDB
import GRDBSQLite

/// Appends points to `run_points` inside the caller's transaction.
///
/// The statement is prepared once per connection (GRDB's statement cache) and each column is bound with
/// SQLite's C API: a one-hour import writes 3,600 rows, and boxing every value into `StatementArguments` cost
/// more than the B-tree insert itself. A plain `INSERT` (not `OR REPLACE`): with foreign keys enforced, SQLite's
/// REPLACE does extra work on every row, and a point is only ever written once (a failed transaction is retried
/// whole).
enum PointWriter {
    private static let sql = """
        INSERT INTO run_points (run_id, seq, time, lat, lon, altitude, speed, accuracy, segment, rejection,
                                distance_m, heart_rate, cadence, power, temperature)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes `points` of run `runID`. A sequence number already stored is a constraint error.
    static func write(_ points: [TrackPoint], runID: String, in db: Database) throws {
        guard !points.isEmpty else { return }
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        try runID.withCString { id in
            // The run id is bound without a copy: the bindings are cleared before `id` goes away.
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            try check(sqlite3_bind_text(handle, 1, id, -1, nil), db)
            for point in points {
                sqlite3_reset(handle)
                sqlite3_bind_int64(handle, 2, Int64(point.sequence))
                sqlite3_bind_double(handle, 3, point.time.timeIntervalSince1970)
                bind(point.coordinate?.latitude, at: 4, handle)
                bind(point.coordinate?.longitude, at: 5, handle)
                bind(point.altitude, at: 6, handle)
                bind(point.speed, at: 7, handle)
                bind(point.horizontalAccuracy, at: 8, handle)
                sqlite3_bind_int64(handle, 9, Int64(point.segment))
                if let rejection = point.rejection {
                    try rejection.rawValue.withCString {
                        try check(sqlite3_bind_text(handle, 10, $0, -1, sqliteTransient), db)
                    }
                } else {
                    sqlite3_bind_null(handle, 10)
                }
                bind(point.distance, at: 11, handle)
                bind(point.sensors.heartRate, at: 12, handle)
                bind(point.sensors.cadence, at: 13, handle)
                bind(point.sensors.power, at: 14, handle)
                bind(point.sensors.temperature, at: 15, handle)
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code),
                        message: "\(db.lastErrorMessage ?? "") (run \(runID), point \(point.sequence))",
                        sql: sql)
                }
            }
        }
    }

    /// Binds a finite value, or NULL (for `nil`, NaN and infinities, which SQLite cannot store as REAL).
    private static func bind(_ value: Double?, at index: Int32, _ handle: OpaquePointer) {
        if let value, value.isFinite {
            sqlite3_bind_double(handle, index, value)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    private static func check(_ code: Int32, _ db: Database) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound text (the C macro is not imported into Swift).
    private static let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
