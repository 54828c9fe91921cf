import GRDB

/// SpatiaLite's triggers on the `flyers` table, set aside for a bulk write and put back at its end,
/// inside the same transaction.
///
/// Per row, SpatiaLite's triggers update the R*Tree, check the geometry constraint
/// (`ggi_`/`ggu_`: type and SRID allowed by the column) and stamp `geometry_columns_time`
/// (`tmi_`/`tmu_`). For a bulk write the R*Tree is rebuilt once; the constraint holds by
/// construction, because every geometry is a `FlyerGeometry` (Point, Polygon or MultiPolygon,
/// XY) written with SRID 4326 into a `GEOMETRY` column; and the time stamp is set once.
struct SpatialTriggers {
    /// The `CREATE TRIGGER` statements of the geometry triggers that were dropped.
    private let definitions: [String]

    /// Drops the spatial-index triggers and index, and the geometry triggers (remembering them).
    static func suspend(on db: Database) throws -> SpatialTriggers {
        try db.execute(sql: "SELECT DisableSpatialIndex('flyers', 'geom')")
        try db.execute(sql: "DROP TABLE IF EXISTS idx_flyers_geom")
        let triggers = try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master
            WHERE type = 'trigger' AND tbl_name = 'flyers' AND name IN ('ggi_flyers_geom', 'ggu_flyers_geom', 'tmi_flyers_geom', 'tmu_flyers_geom')
            """)
        for trigger in triggers {
            let name: String = trigger["name"]
            try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
        }
        return SpatialTriggers(definitions: triggers.map { $0["sql"] })
    }

    /// Re-creates the geometry triggers, stamps the update time and rebuilds the spatial index.
    func restore(on db: Database) throws {
        for definition in definitions { try db.execute(sql: definition) }
        try db.execute(sql: """
            UPDATE geometry_columns_time SET last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
            WHERE Lower(f_table_name) = 'flyers' AND Lower(f_geometry_column) = 'geom'
            """)
        try db.execute(sql: "SELECT CreateSpatialIndex('flyers', 'geom')")
    }
}
