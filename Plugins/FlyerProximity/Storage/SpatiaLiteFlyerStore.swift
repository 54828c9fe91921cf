import Foundation
import GRDB
import Logging
import MeridianCore
import MeridianStore

/// Why a flyer could not be read or written.
package enum FlyerStoreError: Error, Equatable, CustomStringConvertible {
    /// A flyer with this id exists already (creating, not replacing).
    case duplicateID(String)
    /// The same id twice in one batch (positions are 0-based).
    case repeatedID(String, first: Int, second: Int)
    /// A stored row could not be turned back into a flyer.
    case unreadableRow(id: String, detail: String)
    /// The input being written is invalid.
    case invalidInput(FlyerInputError)
    /// Another writer held the database for longer than the busy timeout.
    case busy
    /// The database cannot be reached (PostgreSQL down, refused sign-in, no PostGIS).
    case unavailable(String)
    case database(String)

    package var description: String {
        switch self {
        case .duplicateID(let id):
            return "a flyer with id '\(id)' exists already; use PUT /v1/flyers/\(id) (or import) to replace it"
        case .repeatedID(let id, let first, let second):
            return "id '\(id)' is given twice (entries \(first) and \(second)); every flyer needs its own id"
        case .unreadableRow(let id, let detail):
            return "the stored flyer '\(id)' cannot be read (\(detail)); delete it and add it again"
        case .invalidInput(let error):
            return error.description
        case .busy:
            return "the database is busy with another write; try again"
        case .unavailable(let detail):
            return "the flyer database is unavailable: \(detail)"
        case .database(let detail):
            return "the flyer table could not be used: \(detail)"
        }
    }
}

/// Reads and writes flyers in SpatiaLite. Every multi-row write is one transaction.
package struct SpatiaLiteFlyerStore: FlyerStore {
    package let store: Store
    package var backend: String { "spatialite" }

    /// Uses `store`, creating the `flyers` table on first use.
    package init(store: Store) throws(StoreError) {
        self.store = store
        try FlyerSchema.migrate(store)
    }

    /// Writes that are expected to reach this many flyers may rebuild the spatial index once instead of row by row.
    static let bulkThreshold = 20_000

    /// Whether a write of about `expected` flyers into a table of `stored` should rebuild the
    /// spatial index once (see `write(mode:progress:checkRepeatedIDs:next:)`). A rebuild packs every stored row
    /// (about 1.5 µs each) where row-at-a-time upkeep costs about 12 µs per written row, so it
    /// pays when the write is large and at least an eighth of what is stored. `stored` is asked only for a
    /// large write: counting the table reads all of its smallest index, which would make every small write's
    /// cost grow with the table.
    static func rebuildsIndex(expected: Double, stored: @autoclosure () throws -> Int) rethrows -> Bool {
        try expected >= Double(bulkThreshold) && expected * 8 >= Double(stored())
    }

    /// The page cache of a bulk write, as SQLite's negative `cache_size` (KiB): 512 MiB at most, used as needed.
    private static let bulkCacheKibibytes = -524_288

    static let columns = "id, title, description, address, category, url, radius_m, valid_from, valid_until"

    /// Writes `flyers` in one transaction (all or nothing). Ids repeated within `flyers` are rejected.
    package func write(_ flyers: [Flyer], mode: FlyerWriteMode) throws(FlyerStoreError) {
        var position = 0
        _ = try write(mode: mode, progress: nil) { () -> FlyerReadAhead.Batch? in
            guard position < flyers.count else { return nil }
            let end = min(position + 10_000, flyers.count)
            defer { position = end }
            return FlyerReadAhead.Batch(
                flyers: flyers[position..<end], fractionRead: Double(end) / Double(flyers.count))
        }
    }

    /// Reads `source` on a thread of its own while writing what it has read, in one transaction
    /// (all or nothing: an invalid flyer anywhere in the input writes none). Returns how many were written.
    package func write(
        from source: some FlyerSource, mode: FlyerWriteMode,
        progress: ((FlyerWriteProgress) -> Void)? = nil
    ) throws(FlyerStoreError) -> Int {
        let reader = FlyerReadAhead(source)
        defer { reader.stop() }
        return try write(mode: mode, progress: progress, checkRepeatedIDs: !source.rejectsRepeatedIDs) {
            () throws(FlyerStoreError) -> FlyerReadAhead.Batch? in
            do throws(FlyerInputError) {
                return try reader.next()
            } catch {
                throw .invalidInput(error)
            }
        }
    }

    /// Writes the batches `next` returns (nil at the end) in one transaction; returns how many flyers it wrote.
    ///
    /// A large write (judged from the first batch and how much of the input it took; see
    /// `rebuildsIndex(expected:stored:)`) runs without SpatiaLite's per-row triggers and packs the spatial
    /// index once at the end, in the same transaction, so a failure leaves the table, its
    /// triggers and its index untouched. With `checkRepeatedIDs`, an id seen earlier in this write
    /// is refused (the caller turns it off when its source checks that itself).
    private func write(
        mode: FlyerWriteMode, progress: ((FlyerWriteProgress) -> Void)?, checkRepeatedIDs: Bool = true,
        next: () throws(FlyerStoreError) -> FlyerReadAhead.Batch?
    ) throws(FlyerStoreError) -> Int {
        let conflict =
            mode == .upsert
            ? " ON CONFLICT(id) DO UPDATE SET title = excluded.title, description = excluded.description, address = excluded.address, category = excluded.category, url = excluded.url, radius_m = excluded.radius_m, valid_from = excluded.valid_from, valid_until = excluded.valid_until, geom = excluded.geom, words = excluded.words"
            : ""
        let sql =
            "INSERT INTO flyers (\(Self.columns), geom, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)\(conflict)"
        return try run {
            try store.database.write { db -> Int in
                let insert = try FlyerInsertStatement(db, sql: sql)
                var seen: [String: Int] = [:]
                var written = 0
                var triggers: SpatialTriggers?
                var cacheSize: Int?
                defer { if let cacheSize { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") } }
                while let batch = try next() {
                    if written == 0,
                        try Self.rebuildsIndex(
                            expected: Double(batch.flyers.count) / max(batch.fractionRead, 1e-9),
                            stored: try Int.fetchOne(db, sql: "SELECT count(*) FROM flyers") ?? 0)
                    {
                        triggers = try SpatialTriggers.suspend(on: db, table: "flyers")
                        // A page cache that holds the whole write: a small one spills pages to the WAL and reads them back.
                        cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size")
                        try db.execute(sql: "PRAGMA cache_size = \(Self.bulkCacheKibibytes)")
                    }
                    for flyer in batch.flyers {
                        if checkRepeatedIDs, let first = seen.updateValue(written, forKey: flyer.id) {
                            throw FlyerStoreError.repeatedID(flyer.id, first: first, second: written)
                        }
                        do {
                            try insert.insert(flyer)
                        } catch let error as DatabaseError
                            where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
                        {
                            throw FlyerStoreError.duplicateID(flyer.id)
                        }
                        written += 1
                    }
                    progress?(FlyerWriteProgress(written: written, fractionRead: batch.fractionRead))
                }
                if let triggers {
                    try PackedSpatialIndex.rebuild(db, table: "flyers", column: "geom")
                    try triggers.restore(on: db)
                    // So were the text index's: it is built again from every row's words.
                    try FlyerSchema.rebuildTextIndex(db)
                    // The change log's triggers were set aside too: one entry tells readers to load everything.
                    try db.execute(sql: "INSERT INTO flyer_changes (flyer_id) VALUES (NULL)")
                }
                return written
            }
        }
    }

    /// Deletes flyer `id`; false when there was none.
    package func delete(id: String) throws(FlyerStoreError) -> Bool {
        try run {
            try store.database.write { db in
                try db.execute(sql: "DELETE FROM flyers WHERE id = ?", arguments: [id])
                return db.changesCount > 0
            }
        }
    }

    /// The flyer with this id.
    package func flyer(id: String) throws(FlyerStoreError) -> Flyer? {
        try run {
            try store.database.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns), AsBinary(geom) FROM flyers WHERE id = ?", arguments: [id])
            }
        }.map { row throws(FlyerStoreError) in try Self.flyer(from: row) }
    }

    package func flyers(ids: [String]) throws(FlyerStoreError) -> [Flyer] {
        var found: [Flyer] = []
        for chunk in stride(from: 0, to: ids.count, by: 500) {
            let part = Array(ids[chunk..<min(chunk + 500, ids.count)])
            let rows = try run {
                try store.database.read { db in
                    try Row.fetchAll(
                        db,
                        sql:
                            "SELECT \(Self.columns), AsBinary(geom) FROM flyers WHERE id IN (\(databaseQuestionMarks(count: part.count)))",
                        arguments: StatementArguments(part))
                }
            }
            for row in rows { found.append(try Self.flyer(from: row)) }
        }
        return found
    }

    package func repairWords(of flyers: [Flyer]) throws(FlyerStoreError) {
        var folder = SearchWords()
        let wanted = Dictionary(flyers.map { ($0.id, folder.stored($0)) }, uniquingKeysWith: { first, _ in first })
        var stale: [(id: String, words: String)] = []
        for chunk in stride(from: 0, to: flyers.count, by: 500) {
            let part = flyers[chunk..<min(chunk + 500, flyers.count)].map(\.id)
            let rows = try run {
                try store.database.read { db in
                    try Row.fetchAll(
                        db,
                        sql: "SELECT id, words FROM flyers WHERE id IN (\(databaseQuestionMarks(count: part.count)))",
                        arguments: StatementArguments(part))
                }
            }
            for row in rows {
                let id: String = row[0]
                if let words = wanted[id], row[1] as String? != words { stale.append((id, words)) }
            }
        }
        // Read first: an UPDATE would take the file's write lock at every refresh, even with nothing to change.
        guard !stale.isEmpty else { return }
        try run {
            try store.database.write { db in
                for (id, words) in stale {
                    try db.execute(sql: "UPDATE flyers SET words = ? WHERE id = ?", arguments: [words, id])
                }
            }
        }
    }

    package func lastChange() throws(FlyerStoreError) -> Int64 {
        try run {
            try store.database.read { db in try Self.lastChange(db) }
        }
    }

    package func changes(after: Int64) throws(FlyerStoreError) -> FlyerChanges {
        try run {
            try store.database.read { db in try Self.changes(db, after: after) }
        }
    }

    /// The change log after `after`, read in `db`'s transaction.
    static func changes(_ db: Database, after: Int64) throws -> FlyerChanges {
        let rows = try Row.fetchAll(
            db, sql: "SELECT seq, flyer_id FROM flyer_changes WHERE seq > ? ORDER BY seq LIMIT ?",
            arguments: [after, FlyerChanges.limit + 1])
        let oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM flyer_changes")
        return FlyerChanges(after: after, rows: rows.map { ($0[0], $0[1]) }, oldestLogged: oldest)
    }

    /// Flyers chosen by `condition` (SQL after WHERE, with bound `arguments`, may end in ORDER BY), one at a time
    /// until `body` returns false.
    func scan(_ condition: String, _ arguments: StatementArguments, _ body: (Flyer) throws -> Bool)
        throws(FlyerStoreError)
    {
        try run {
            try store.database.read { db in try Self.eachFlyer(db, where: condition, arguments, body) }
        }
    }

    /// Calls `body` with each flyer `condition` chooses (SQL after WHERE, with bound `arguments`, may end in
    /// ORDER BY), read in `db`'s transaction, until `body` returns false.
    static func eachFlyer(
        _ db: Database, where condition: String = "1", _ arguments: StatementArguments = [],
        _ body: (Flyer) throws -> Bool
    ) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns), AsBinary(geom) FROM flyers WHERE \(condition)", arguments: arguments)
        while let row = try rows.next() {
            guard try body(try flyer(from: row)) else { return }
        }
    }

    /// The row ids a query returns.
    func rowids(_ sql: String, _ arguments: StatementArguments) throws(FlyerStoreError) -> [Int64] {
        try run { try store.database.read { db in try Int64.fetchAll(db, sql: sql, arguments: arguments) } }
    }

    static func lastChange(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM flyer_changes") ?? 0
    }

    /// Calls `body` with every stored flyer in id order.
    package func forEach(_ body: (Flyer) throws -> Void) throws(FlyerStoreError) {
        try run {
            try store.database.read { db in
                try Self.eachFlyer(db, where: "1 ORDER BY id") {
                    try body($0)
                    return true
                }
            }
        }
    }

    /// Every stored flyer, in id order.
    package func all() throws(FlyerStoreError) -> [Flyer] {
        var flyers: [Flyer] = []
        try forEach { flyers.append($0) }
        return flyers
    }

    static func flyer(from row: Row) throws(FlyerStoreError) -> Flyer {
        let id: String = (try? row.decode(String.self, atIndex: 0)) ?? "?"
        guard let title = try? row.decode(String.self, atIndex: 1),
            let radius = try? row.decode(Double.self, atIndex: 6),
            let wkb = try? row.decode(Data.self, atIndex: 9)
        else { throw .unreadableRow(id: id, detail: "title, radius_m or geometry is missing") }
        guard let geometry = WKB.decode(wkb) else {
            throw .unreadableRow(id: id, detail: "the geometry is not a valid Point, Polygon or MultiPolygon")
        }
        let text = { (index: Int) -> String? in try? row.decode(String?.self, atIndex: index) }
        let date = { (index: Int) -> Date? in
            (try? row.decode(Double?.self, atIndex: index)).map(Date.init(timeIntervalSince1970:))
        }
        return Flyer(
            id: id, title: title, description: text(2), address: text(3), category: text(4), url: text(5),
            radiusM: radius, validFrom: date(7), validUntil: date(8), geometry: geometry)
    }

    func run<T>(_ body: () throws -> T) throws(FlyerStoreError) -> T {
        do {
            return try body()
        } catch let error as FlyerStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw .busy
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
        {
            // A page SQLite cannot read is damage like any the whole-file check finds: writes are refused from now on.
            store.recordDamage(error.message ?? "\(error)", foundBy: "flyers", logger: Logger(label: "meridian.flyers"))
            throw .unavailable(store.damage?.description ?? "\(error)")
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_READONLY {
            // Damage found, or the whole-file check after an unclean stop still running.
            throw .unavailable(store.writeRefusal ?? error.message ?? "\(error)")
        } catch let error as DatabaseError {
            throw .database(error.message ?? "\(error)")
        } catch {
            throw .database("\(error)")
        }
    }
}
