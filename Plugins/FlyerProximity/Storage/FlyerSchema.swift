import MeridianStore

/// The `flyers` table: attributes, validity as Unix seconds, and the geometry in a
/// SpatiaLite column (SRID 4326, any of Point/Polygon/MultiPolygon) with an R*Tree index.
enum FlyerSchema {
    static func migrate(_ store: Store) throws(StoreError) {
        try store.migrate(plugin: "flyers") { migrations in
            migrations.register("v1") { db in
                try db.execute(sql: """
                    CREATE TABLE flyers (
                        id TEXT NOT NULL PRIMARY KEY,
                        title TEXT NOT NULL,
                        description TEXT,
                        address TEXT,
                        category TEXT,
                        url TEXT,
                        radius_m REAL NOT NULL,
                        valid_from REAL,
                        valid_until REAL
                    )
                    """)
                try db.execute(sql: "SELECT AddGeometryColumn('flyers', 'geom', 4326, 'GEOMETRY', 'XY', 1)")
                try db.execute(sql: "SELECT CreateSpatialIndex('flyers', 'geom')")
                try db.execute(sql: "CREATE INDEX flyers_category ON flyers(category)")
            }
        }
    }
}
