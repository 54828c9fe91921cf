import GRDB
import GRDBSQLite

/// A prepared write statement bound and stepped through the SQLite C API: for bulk writes,
/// where building GRDB `StatementArguments` per row costs more than SQLite's own work.
struct RawStatement {
    private let statement: Statement
    private let connection: OpaquePointer?

    /// Prepares (and caches on `db`) the statement for `sql`.
    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
    }

    /// Binds text, or NULL for nil, to parameter `index` (1-based).
    func bind(_ text: String?, at index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_bind_text(
                    statement.sqliteStatement, index, characters.baseAddress, Int32(characters.count), Self.transient)
            }
        }
    }

    /// Binds a real, or NULL for nil.
    func bind(_ value: Double?, at index: Int32) {
        if let value {
            sqlite3_bind_double(statement.sqliteStatement, index, value)
        } else {
            sqlite3_bind_null(statement.sqliteStatement, index)
        }
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(statement.sqliteStatement, index, value)
    }

    /// Binds a blob (SQLite copies the bytes).
    func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_blob(statement.sqliteStatement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
    }

    /// Runs the statement once with what is bound; a failure is the `DatabaseError` SQLite
    /// reports, with its extended code.
    func step() throws {
        let handle = statement.sqliteStatement
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw Self.error(connection, sql: statement.sql) }
    }

    /// Runs the statement with two integers.
    func run(_ first: Int64, _ second: Int64) throws {
        bind(first, at: 1)
        bind(second, at: 2)
        try step()
    }

    /// Runs the statement with an integer and a blob.
    func run(_ first: Int64, _ second: [UInt8]) throws {
        bind(first, at: 1)
        second.withUnsafeBytes { bind($0, at: 2) }
        try step()
    }

    /// The error SQLite reports on `connection` for `sql`.
    static func error(_ connection: OpaquePointer?, sql: String) -> DatabaseError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)), message: message, sql: sql)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
