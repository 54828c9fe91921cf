import Foundation
import Logging
import PostgresNIO

/// The PostGIS tables, created by versioned migrations on start (recorded in `meridian_migrations`;
/// one instance at a time migrates, under an advisory lock):
///
/// - `flyers`: the same fields as the SpatiaLite table (plus `category_key`, the category in lower
///   case as Meridian compares it), validity as Unix seconds, the geometry as
///   `geography(Geometry, 4326)` with a GiST index, and for areas `search_boxes` (Meridian's own
///   latitude/longitude boxes that hold every point of the area, geodesic edges included).
/// - `flyer_changes`: the id of every written or deleted flyer (statement triggers; a NULL id after
///   more than 10,000 rows at once means "everything"), the latest 10,000 kept, each commit announced
///   with `NOTIFY meridian_flyers`. Writers take an advisory lock in the trigger, so change numbers
///   follow commit order.
/// - `flyer_search_index`: the packed search index, stored as `PersistedFlyerIndex` describes (`PostGISSearchIndex`).
enum PostGISSchema {
    /// The channel of change notifications.
    static let channel = "meridian_flyers"
    /// Advisory lock keys: migrations, and the change log's writer.
    static let migrationLock = 7_302_218
    static let changeLock = 7_302_219
    /// Advisory lock key of the stored search index's writer (`PostGISSearchIndex`).
    static let indexLock = 7_302_220

    /// The secondary indexes of `flyers`, which a large write drops and builds again (`PostGISImport`).
    static let bulkIndexes: [(name: String, create: String)] = [
        ("flyers_geog", "CREATE INDEX flyers_geog ON flyers USING gist (geog)"),
        (
            "flyers_search_boxes",
            "CREATE INDEX flyers_search_boxes ON flyers USING gist (search_boxes) WHERE search_boxes IS NOT NULL"
        ),
        ("flyers_category", "CREATE INDEX flyers_category ON flyers (category_key)")
    ]

    /// Each flyer's `words` (`SearchWords`, as Meridian wrote them) as a `tsvector` of those words verbatim (no parser
    /// or dictionary of PostgreSQL's), which a text condition of `PostGISSearch` tests (a query must name it so to
    /// use `wordsIndex`).
    static let wordsExpression = "array_to_tsvector(string_to_array(words, ' '))"
    /// The text index: a GIN index of `wordsExpression`. A bulk write drops it and `PostGISWordsIndex` builds it again
    /// after the commit, beside the flyers' use.
    static let wordsIndex = "flyers_words"
    /// Advisory lock key of the instance building `wordsIndex`.
    static let wordsIndexLock = 7_302_221

    static let migrations: [(name: String, sql: [String])] = [
        (
            "flyers.v1",
            [
                """
                CREATE TABLE flyers (
                    id text COLLATE "C" NOT NULL PRIMARY KEY,
                    title text COLLATE "C" NOT NULL,
                    description text,
                    address text,
                    category text,
                    category_key text COLLATE "C",
                    url text,
                    radius_m double precision NOT NULL,
                    valid_from double precision,
                    valid_until double precision,
                    geog geography(Geometry, 4326) NOT NULL,
                    search_boxes geometry(MultiPolygon, 4326)
                )
                """
            ] + bulkIndexes.map(\.create) + [
                "CREATE TABLE flyer_changes (seq bigserial PRIMARY KEY, flyer_id text COLLATE \"C\")",
                """
                CREATE FUNCTION flyer_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    changed bigint;
                    latest bigint;
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        SELECT count(*) INTO changed FROM old_rows;
                    ELSE
                        SELECT count(*) INTO changed FROM new_rows;
                    END IF;
                    IF changed = 0 THEN
                        RETURN NULL;
                    END IF;
                    PERFORM pg_advisory_xact_lock(\(changeLock));
                    IF changed > 10000 THEN
                        INSERT INTO flyer_changes (flyer_id) VALUES (NULL);
                    ELSIF TG_OP = 'DELETE' THEN
                        INSERT INTO flyer_changes (flyer_id) SELECT id FROM old_rows;
                    ELSIF TG_OP = 'UPDATE' THEN
                        INSERT INTO flyer_changes (flyer_id) SELECT id FROM new_rows UNION SELECT id FROM old_rows;
                    ELSE
                        INSERT INTO flyer_changes (flyer_id) SELECT id FROM new_rows;
                    END IF;
                    SELECT max(seq) INTO latest FROM flyer_changes;
                    DELETE FROM flyer_changes WHERE seq <= latest - 10000;
                    PERFORM pg_notify('\(channel)', latest::text);
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER flyer_changes_insert AFTER INSERT ON flyers REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION flyer_changes_log()
                """,
                """
                CREATE TRIGGER flyer_changes_update AFTER UPDATE ON flyers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION flyer_changes_log()
                """,
                """
                CREATE TRIGGER flyer_changes_delete AFTER DELETE ON flyers REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION flyer_changes_log()
                """
            ]
        ),
        (
            "flyers.search_index.v1",
            [
                // Stored uncompressed: the arrays compress little, and reading them back is the start of every instance.
                "CREATE TABLE flyer_search_index (name text COLLATE \"C\" PRIMARY KEY, data bytea NOT NULL)",
                "ALTER TABLE flyer_search_index ALTER COLUMN data SET STORAGE EXTERNAL"
            ]
        ),
        (
            "flyers.words.v1",
            [
                "ALTER TABLE flyers ADD COLUMN words text",
                "CREATE INDEX \(wordsIndex) ON flyers USING gin (\(wordsExpression))"
            ]
        )
    ]

    /// Makes sure PostGIS is there (creating it when permitted) and applies the missing migrations.
    static func migrate(_ client: PostgresClient, location: PostgresLocation, logger: Logger) async throws {
        try await ensurePostGIS(client, location: location, logger: logger)
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS meridian_migrations (identifier text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<String>()
            for try await identifier in try await connection.query(
                "SELECT identifier FROM meridian_migrations", logger: logger
            ).decode(String.self) {
                applied.insert(identifier)
            }
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO meridian_migrations (identifier) VALUES (\(migration.name))", logger: logger)
                logger.info("flyers: applied migration \(migration.name)")
            }
        }
    }

    private static func ensurePostGIS(_ client: PostgresClient, location: PostgresLocation, logger: Logger) async throws
    {
        let rows = try await client.query("SELECT count(*) FROM pg_extension WHERE extname = 'postgis'", logger: logger)
        var installed = false
        for try await count in rows.decode(Int.self) { installed = count > 0 }
        guard !installed else { return }
        do {
            try await client.query("CREATE EXTENSION IF NOT EXISTS postgis", logger: logger)
        } catch let error as PSQLError where error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "an error"
            if state == "42501" {
                throw FlyerStoreError.unavailable(
                    """
                    PostGIS is not installed in the database '\(location.database)' and the user '\(location.user)' may not install it (\(message)); \
                    as a superuser run: psql -d \(location.database) -c 'CREATE EXTENSION postgis;'
                    """)
            }
            throw FlyerStoreError.unavailable(
                """
                PostGIS cannot be installed in the database '\(location.database)' (\(message)); install PostGIS 3 on the server \
                (Debian: postgresql-15-postgis-3), then as a superuser run: psql -d \(location.database) -c 'CREATE EXTENSION postgis;'
                """)
        }
    }
}
