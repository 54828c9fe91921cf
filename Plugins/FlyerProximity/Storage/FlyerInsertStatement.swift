import Foundation
import GRDB

/// The prepared `INSERT` of one flyer row, for bulk writes.
final class FlyerInsertStatement {
    private let statement: RawStatement
    /// The geometry column's bytes, reused from row to row.
    private var geometry: [UInt8] = []
    /// Folds the text into the words of the text index (`SearchWords`).
    private var folder = SearchWords()

    /// Prepares the statement (cached on `db`) for `sql`, whose 11 parameters `insert` binds: the columns of
    /// `SpatiaLiteFlyerStore.columns`, the geometry column (in SpatiaLite's format with SRID 4326), and `words`.
    init(_ db: Database, sql: String) throws {
        statement = try RawStatement(db, sql: sql)
    }

    /// Inserts `flyer`; a failure is the `DatabaseError` SQLite reports (with its extended code).
    func insert(_ flyer: Flyer) throws {
        statement.bind(flyer.id, at: 1)
        statement.bind(flyer.title, at: 2)
        statement.bind(flyer.description, at: 3)
        statement.bind(flyer.address, at: 4)
        statement.bind(flyer.category, at: 5)
        statement.bind(flyer.url, at: 6)
        statement.bind(flyer.radiusM, at: 7)
        statement.bind(flyer.validFrom?.timeIntervalSince1970, at: 8)
        statement.bind(flyer.validUntil?.timeIntervalSince1970, at: 9)
        SpatiaLiteBlob.encode(flyer.geometry, srid: 4326, into: &geometry)
        geometry.withUnsafeBytes { statement.bind($0, at: 10) }
        statement.bind(folder.stored(flyer), at: 11)
        try statement.step()
    }
}
