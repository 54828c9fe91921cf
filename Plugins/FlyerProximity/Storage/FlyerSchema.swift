import MeridianStore

/// The `flyers` table: attributes, validity as Unix seconds, and the geometry in a
/// SpatiaLite column (SRID 4326, any of Point/Polygon/MultiPolygon) with an R*Tree index.
/// `flyer_changes` logs the id of every written or deleted flyer (triggers, so writes from any
/// process count; a NULL id after a bulk write means "everything"), keeping the latest 10,000.
/// `flyer_search_index` holds the packed search index (`PersistedFlyerIndex`).
package enum FlyerSchema {
    static func migrate(_ store: Store) throws(StoreError) {
        try store.migrate(schema)
    }

    /// The flyers' migrations, oldest first (`Store.migrate` applies them).
    package static var schema: PluginSchema {
        PluginSchema(plugin: "flyers") { migrations in
            migrations.register("v1") { db in
                try db.execute(
                    sql: """
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
            migrations.register("v2-change-log") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE flyer_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, flyer_id TEXT);
                        CREATE TRIGGER flyer_changes_insert AFTER INSERT ON flyers
                            BEGIN INSERT INTO flyer_changes (flyer_id) VALUES (NEW.id); END;
                        CREATE TRIGGER flyer_changes_update AFTER UPDATE ON flyers
                            BEGIN INSERT INTO flyer_changes (flyer_id) VALUES (NEW.id);
                                  INSERT INTO flyer_changes (flyer_id) SELECT OLD.id WHERE OLD.id <> NEW.id; END;
                        CREATE TRIGGER flyer_changes_delete AFTER DELETE ON flyers
                            BEGIN INSERT INTO flyer_changes (flyer_id) VALUES (OLD.id); END;
                        CREATE TRIGGER flyer_changes_prune AFTER INSERT ON flyer_changes
                            BEGIN DELETE FROM flyer_changes WHERE seq <= NEW.seq - 10000; END;
                        """)
            }
            migrations.register("v3-search-index") { db in
                try db.execute(
                    sql: "CREATE TABLE flyer_search_index (name TEXT NOT NULL PRIMARY KEY, data BLOB NOT NULL)")
            }
        }
    }
}
