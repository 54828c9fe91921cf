import Foundation
import Logging
import MeridianCore
import MeridianTesting
import PostgresNIO
import Testing

@testable import FlyerProximity

/// A flyer another program writes straight into the table, without the words Meridian's text search reads, is found
/// by the database's own text search once the running service has seen it (the cache folds text itself).
@Suite("Text search finds flyers that other programs wrote")
struct OtherProgramWordsTests {
    @Test(
        "a row inserted and then retitled by plain SQL gets its words from the running service",
        arguments: FlyerBackend.allCases)
    func wordsOfOtherWriters(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server, database in
            try await Self.execute(
                database,
                spatialite:
                    "INSERT INTO flyers (id, title, radius_m, geom) VALUES ('zanzibar', 'Zanzibar bakery', 50, GeomFromText('POINT(13.4 52.5)', 4326))",
                postgis:
                    "INSERT INTO flyers (id, title, radius_m, geog) VALUES ('zanzibar', 'Zanzibar bakery', 50, 'SRID=4326;POINT(13.4 52.5)'::geography)"
            )
            try await Self.waitForDatabaseSearch(database, "zanzib", finds: ["zanzibar"])
            try await Self.execute(
                database, spatialite: "UPDATE flyers SET title = 'Kilimanjaro bakery' WHERE id = 'zanzibar'",
                postgis: "UPDATE flyers SET title = 'Kilimanjaro bakery' WHERE id = 'zanzibar'")
            try await Self.waitForDatabaseSearch(database, "kiliman", finds: ["zanzibar"])
            try await Self.waitForDatabaseSearch(database, "zanzib", finds: [])
            #expect(server.plugin?.catalog.report.state == "connected")
        }
    }

    /// Runs `sql` on the database as another program would, bypassing Meridian's writes.
    static func execute(_ database: FlyerDatabase, spatialite: String, postgis: String) async throws {
        switch database {
        case .spatialite(let temporary):
            try await temporary.store.database.write { db in try db.execute(sql: spatialite) }
        case .postgis(let url):
            let store = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "other-program"))
            defer { Task { await store.close() } }
            try await store.client.query(PostgresQuery(unsafeSQL: postgis), logger: Logger(label: "other-program"))
        }
    }

    /// Waits until the database's own text search (no cache) for `text` around the flyer finds `ids`.
    static func waitForDatabaseSearch(_ database: FlyerDatabase, _ text: String, finds ids: [String]) async throws {
        let store = try await database.openStore()
        defer { Task { await store.close() } }
        let search = store.makeDatabaseSearch()
        let query = NearbyQuery(
            center: try Coordinate(latitude: 52.5, longitude: 13.4), radius: 1000, text: try TextQuery(text))
        try await ManagedProcess.waitUntil(timeout: 10, "the database's text search for '\(text)' to find \(ids)") {
            try await search.nearby(query).matches.map(\.flyer.id) == ids
        }
    }
}
