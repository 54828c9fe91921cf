import GRDB

/// SpatiaLite's triggers on a table, set aside for a bulk write and put back at its end, inside
/// the same transaction.
///
/// Per row, SpatiaLite's triggers update the R*Tree (`gii_`/`giu_`/`gid_`), check the geometry
/// constraint (`ggi_`/`ggu_`: type and SRID allowed by the column) and stamp
/// `geometry_columns_time` (`tmi_`/`tmu_`/`tmd_`). For a bulk write the R*Tree is rebuilt once
/// (`PackedSpatialIndex`); the constraint holds by construction, because every geometry is a
/// `FlyerGeometry` (Point, Polygon or MultiPolygon, XY) written with SRID 4326 into a
/// `GEOMETRY` column; and the time stamp is set once.
struct SpatialTriggers {
    private let table: String
    /// The `CREATE TRIGGER` statements of the triggers that were dropped.
    private let definitions: [String]

    /// Drops every trigger on `table`, remembering their definitions.
    static func suspend(on db: Database, table: String) throws -> SpatialTriggers {
        let triggers = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", arguments: [table])
        for trigger in triggers {
            let name: String = trigger["name"]
            try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
        }
        return SpatialTriggers(table: table, definitions: triggers.map { $0["sql"] })
    }

    /// Re-creates the triggers and stamps the geometry's update time.
    func restore(on db: Database) throws {
        for definition in definitions { try db.execute(sql: definition) }
        try db.execute(
            sql: """
                UPDATE geometry_columns_time SET last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE Lower(f_table_name) = Lower(?)
                """, arguments: [table])
    }
}
