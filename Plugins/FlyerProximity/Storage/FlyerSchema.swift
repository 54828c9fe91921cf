import GRDB
import MeridianStore

/// The `flyers` table: attributes, validity as Unix seconds, and the geometry in a
/// SpatiaLite column (SRID 4326, any of Point/Polygon/MultiPolygon) with an R*Tree index.
/// `flyer_changes` logs the id of every written or deleted flyer (triggers, so writes from any
/// process count; a NULL id after a bulk write means "everything"), keeping the latest 10,000.
/// `flyer_search_index` holds the packed search index (`PersistedFlyerIndex`). `words` holds each flyer's
/// `SearchWords` (written by Meridian's writes), indexed by the FTS5 table `flyer_words`, which triggers keep in
/// step with the column for any writer.
package enum FlyerSchema {
    static func migrate(_ store: Store) throws(StoreError) {
        try store.migrate(schema)
    }

    /// Builds the text index (`flyer_words`, FTS5 over the `words` column) again from every row.
    static func rebuildTextIndex(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO flyer_words (flyer_words) VALUES ('rebuild')")
    }

    /// Gives every stored flyer its `words` (`SearchWords`), with the table's triggers set aside: the words are
    /// not part of the flyer as searches and the change log see it.
    private static func fillWords(_ db: Database) throws {
        var rows: [(Int64, [String?])] = []
        let cursor = try Row.fetchCursor(db, sql: "SELECT rowid, title, description, address, category FROM flyers")
        while let row = try cursor.next() { rows.append((row[0], [row[1], row[2], row[3], row[4]])) }
        guard !rows.isEmpty else { return }
        let triggers = try SpatialTriggers.suspend(on: db, table: "flyers")
        let update = try db.makeStatement(sql: "UPDATE flyers SET words = ? WHERE rowid = ?")
        var folder = SearchWords()
        for (rowid, fields) in rows {
            try update.execute(arguments: [folder.stored(ofFields: fields), rowid])
        }
        try triggers.restore(on: db)
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
            migrations.register("v4-text-search") { db in
                try db.execute(sql: "ALTER TABLE flyers ADD COLUMN words TEXT")
                try fillWords(db)
                try db.execute(
                    sql: """
                        CREATE VIRTUAL TABLE flyer_words USING fts5(words, content='flyers', content_rowid='rowid',
                            tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'");
                        CREATE TRIGGER flyer_words_insert AFTER INSERT ON flyers
                            BEGIN INSERT INTO flyer_words (rowid, words) VALUES (NEW.rowid, NEW.words); END;
                        CREATE TRIGGER flyer_words_delete AFTER DELETE ON flyers
                            BEGIN INSERT INTO flyer_words (flyer_words, rowid, words) VALUES ('delete', OLD.rowid, OLD.words); END;
                        CREATE TRIGGER flyer_words_update AFTER UPDATE OF words ON flyers
                            BEGIN INSERT INTO flyer_words (flyer_words, rowid, words) VALUES ('delete', OLD.rowid, OLD.words);
                                  INSERT INTO flyer_words (rowid, words) VALUES (NEW.rowid, NEW.words); END;
                        """)
                try rebuildTextIndex(db)
            }
            migrations.register("v5-text-index-without-positions") { db in
                // The text index is asked for words and word prefixes only (`SpatiaLiteSearch.textCondition`):
                // without positions and column sizes it builds in 5.1 s instead of 7.7 s at 1,000,000 flyers, as a
                // bulk import does each time. Its triggers belong to `flyers` and stay.
                try db.execute(
                    sql: """
                        DROP TABLE flyer_words;
                        CREATE VIRTUAL TABLE flyer_words USING fts5(words, content='flyers', content_rowid='rowid',
                            detail=none, columnsize=0,
                            tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'");
                        """)
                try rebuildTextIndex(db)
            }
        }
    }
}
