import Foundation
import GRDB

/// Whether the change log names every flyer written since the stored search index was last known to match the
/// flyer table, so that the index with the logged changes applied is the table, without reading the table.
///
/// SQLite fires the change log's triggers for every write to `flyers`, by any program (`sqlite3` too), so only a
/// change of the flyer table's schema (a trigger dropped or replaced, the table rebuilt) lets a write past them.
/// The proof is that schema as it was at a moment when the stored index and the change log matched the table (the
/// index was built from it, or compared with it), kept as the row `schema` of `flyer_search_index`: every object of
/// the table (`sqlite_master`: row number, type, name, root page, SQL). It holds while that is the same and the
/// change log's triggers are there. A trigger dropped and created again gets a new row number (unless it was the
/// newest object of the file); SQLite's own `schema_version` cannot serve, since GRDB creates and drops a table
/// whenever it opens a file whose write-ahead log is empty.
enum ChangeLogProof {
    /// The row of `flyer_search_index` that holds the proof.
    static let rowName = "schema"
    private static let triggers = ["flyer_changes_insert", "flyer_changes_update", "flyer_changes_delete"]

    /// The flyer table's schema now, as one text.
    static func schema(_ db: Database) throws -> String {
        try String.fetchAll(
            db,
            sql: """
                SELECT rowid || ' ' || type || ' ' || name || ' ' || rootpage || ' ' || coalesce(sql, '')
                FROM sqlite_master WHERE tbl_name = 'flyers' ORDER BY rowid
                """
        ).joined(separator: "\n")
    }

    /// True when the stored proof holds now: the same schema, with the change log's triggers in it.
    static func holds(_ db: Database) throws -> Bool {
        guard
            let data = try Data.fetchOne(
                db, sql: "SELECT data FROM flyer_search_index WHERE name = ?", arguments: [rowName])
        else { return false }
        let present = try Int.fetchOne(
            db,
            sql: """
                SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'flyers' AND name IN (?, ?, ?)
                """, arguments: StatementArguments(triggers))
        let current = try schema(db)
        return present == triggers.count && String(decoding: data, as: UTF8.self) == current
    }

    /// Records that the index and the change log matched the table with the flyer table's schema `schema`.
    static func record(_ schema: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO flyer_search_index (name, data) VALUES (?, ?)",
            arguments: [rowName, Data(schema.utf8)])
    }
}
