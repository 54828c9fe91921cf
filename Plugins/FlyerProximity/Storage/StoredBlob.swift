import GRDB
import GRDBSQLite

/// Reads a stored blob through SQLite's incremental blob API, straight into a caller's buffer: a
/// large blob is never assembled in a buffer of SQLite's own first.
enum StoredBlob {
    /// Reads column `data` of row `rowid` of `table` into `buffer`, which must be exactly the blob's size.
    /// Throws SQLite's own result code (`SQLITE_CORRUPT` when the file is damaged where the blob lies).
    static func read(_ db: Database, table: String, rowid: Int64, into buffer: UnsafeMutableRawBufferPointer) throws {
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(db.sqliteConnection, "main", table, "data", rowid, 0, &blob)
        defer { sqlite3_blob_close(blob) }
        guard opened == SQLITE_OK, let blob else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: opened),
                message: "cannot open row \(rowid) of \(table): \(String(cString: sqlite3_errstr(opened)))")
        }
        guard Int(sqlite3_blob_bytes(blob)) == buffer.count else {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT,
                message: "row \(rowid) of \(table) has \(sqlite3_blob_bytes(blob)) bytes, not \(buffer.count)")
        }
        guard let start = buffer.baseAddress, buffer.count > 0 else { return }
        let code = sqlite3_blob_read(blob, start, Int32(buffer.count), 0)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "cannot read row \(rowid) of \(table): \(String(cString: sqlite3_errstr(code)))")
        }
    }
}
