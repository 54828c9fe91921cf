import GRDB
import GRDBSQLite

/// Appends points to `run_points` inside the caller's transaction.
///
/// The statements are prepared once per connection (GRDB's statement cache) and each column is bound with
/// SQLite's C API: a one-hour import writes 3,600 rows, and boxing every value into `StatementArguments` cost
/// more than the B-tree insert itself. Rows go `rowsPerStatement` to an `INSERT … VALUES (…), (…), …`: each
/// statement run costs SQLite a fixed amount besides its rows (starting and ending the statement, its
/// sub-journal), which one row per statement paid 3,600 times a run. A plain `INSERT` (not `OR REPLACE`): with
/// foreign keys enforced, SQLite's REPLACE does extra work on every row, and a point is only ever written once (a
/// failed transaction is retried whole).
enum PointWriter {
    /// Rows per statement: 32 × 15 parameters, well below SQLite's limit of 32,766.
    static let rowsPerStatement = 32
    private static let columnCount: Int32 = 15

    /// The `INSERT` of `rows` rows.
    private static func sql(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: Int(columnCount)).joined(separator: ", ") + ")"
        return """
            INSERT INTO run_points (run_id, seq, time, lat, lon, altitude, speed, accuracy, segment, rejection,
                                    distance_m, heart_rate, cadence, power, temperature)
            VALUES
            """ + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private static let batchSQL = sql(rows: rowsPerStatement)
    private static let singleSQL = sql(rows: 1)

    /// Writes `points` of run `runID`. A sequence number already stored is a constraint error.
    static func write(_ points: [TrackPoint], runID: String, in db: Database) throws {
        guard !points.isEmpty else { return }
        let batched = points.count - points.count % rowsPerStatement
        try runID.withCString { id in
            if batched > 0 {
                try insert(points[..<batched], rows: rowsPerStatement, sql: batchSQL, id: id, runID: runID, db)
            }
            if batched < points.count {
                try insert(points[batched...], rows: 1, sql: singleSQL, id: id, runID: runID, db)
            }
        }
    }

    /// Inserts `points` (a whole number of `rows`) with the statement of `sql`, `rows` per run of it.
    private static func insert(
        _ points: ArraySlice<TrackPoint>, rows: Int, sql: String, id: UnsafePointer<CChar>, runID: String,
        _ db: Database
    ) throws {
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        // The run id is bound without a copy: the bindings are cleared before `id` goes away.
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var start = points.startIndex
        while start < points.endIndex {
            sqlite3_reset(handle)
            for (row, point) in points[start..<start + rows].enumerated() {
                try bind(point, id: id, at: Int32(row) * columnCount, handle, db, sql: sql)
            }
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else {
                let first = points[start].sequence, last = points[start + rows - 1].sequence
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: "\(db.lastErrorMessage ?? "") (run \(runID), points \(first)–\(last))", sql: sql)
            }
            start += rows
        }
    }

    /// Binds `point`'s columns from parameter `offset` + 1 on.
    private static func bind(
        _ point: TrackPoint, id: UnsafePointer<CChar>, at offset: Int32, _ handle: OpaquePointer, _ db: Database,
        sql: String
    ) throws {
        try check(sqlite3_bind_text(handle, offset + 1, id, -1, nil), db, sql: sql)
        sqlite3_bind_int64(handle, offset + 2, Int64(point.sequence))
        sqlite3_bind_double(handle, offset + 3, point.time.timeIntervalSince1970)
        bind(point.coordinate?.latitude, at: offset + 4, handle)
        bind(point.coordinate?.longitude, at: offset + 5, handle)
        bind(point.altitude, at: offset + 6, handle)
        bind(point.speed, at: offset + 7, handle)
        bind(point.horizontalAccuracy, at: offset + 8, handle)
        sqlite3_bind_int64(handle, offset + 9, Int64(point.segment))
        if let rejection = point.rejection {
            try rejection.rawValue.withCString {
                try check(sqlite3_bind_text(handle, offset + 10, $0, -1, sqliteTransient), db, sql: sql)
            }
        } else {
            sqlite3_bind_null(handle, offset + 10)
        }
        bind(point.distance, at: offset + 11, handle)
        bind(point.sensors.heartRate, at: offset + 12, handle)
        bind(point.sensors.cadence, at: offset + 13, handle)
        bind(point.sensors.power, at: offset + 14, handle)
        bind(point.sensors.temperature, at: offset + 15, handle)
    }

    /// Binds a finite value, or NULL (for `nil`, NaN and infinities, which SQLite cannot store as REAL).
    private static func bind(_ value: Double?, at index: Int32, _ handle: OpaquePointer) {
        if let value, value.isFinite {
            sqlite3_bind_double(handle, index, value)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    private static func check(_ code: Int32, _ db: Database, sql: String) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound text (the C macro is not imported into Swift).
    private static let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
