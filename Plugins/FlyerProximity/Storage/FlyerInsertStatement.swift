import Foundation
import GRDB
import GRDBSQLite

/// The prepared `INSERT` of one flyer row, bound straight through the SQLite C API: for bulk
/// imports, where building GRDB `StatementArguments` per row costs more than SQLite's own work.
struct FlyerInsertStatement {
    private let statement: Statement
    private let connection: OpaquePointer?

    /// Prepares the statement (cached on `db`) for `sql` with the 10 parameters written by `insert`.
    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
    }

    /// Inserts `flyer`; a failure is the `DatabaseError` SQLite reports (with its extended code).
    func insert(_ flyer: Flyer) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        bind(flyer.id, at: 1)
        bind(flyer.title, at: 2)
        bind(flyer.description, at: 3)
        bind(flyer.address, at: 4)
        bind(flyer.category, at: 5)
        bind(flyer.url, at: 6)
        sqlite3_bind_double(handle, 7, flyer.radiusM)
        bind(flyer.validFrom?.timeIntervalSince1970, at: 8)
        bind(flyer.validUntil?.timeIntervalSince1970, at: 9)
        let wkb = WKB.encode(flyer.geometry)
        wkb.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, 10, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        guard code == SQLITE_DONE else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)), message: message, sql: statement.sql)
        }
    }

    private func bind(_ text: String?, at index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_bind_text(statement.sqliteStatement, index, characters.baseAddress, Int32(characters.count), Self.transient)
            }
        }
    }

    private func bind(_ value: Double?, at index: Int32) {
        if let value {
            sqlite3_bind_double(statement.sqliteStatement, index, value)
        } else {
            sqlite3_bind_null(statement.sqliteStatement, index)
        }
    }

    /// SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
