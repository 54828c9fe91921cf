import Foundation
import Logging
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

/// The packed search index stored in PostGIS: a new instance reads it back instead of building it from every
/// flyer, brings it up to date from the change log, builds it again when it cannot be trusted, and stays exact.
@Suite("PostGIS stored search index")
struct PostGISStoredIndexTests {
    /// A new PostGIS database holding the 4,000 flyers `PersistedIndexTests` uses, imported as `meridian flyers
    /// import` does (the write, then the stored index); and its URL.
    static func stored() async throws -> (url: String, flyers: [Flyer]) {
        let server = try TestPostgres.shared()
        let url = server.url(try server.createDatabase())
        var workload = FlyerWorkload(
            .init(
                seed: 9, uniformShare: 0.3, areaShare: 0.03, includePolar: true, inactiveShare: 0.2,
                referenceTime: PersistedIndexTests.now))
        let flyers = (0..<4000).map { workload.flyer(number: $0) }
        let store = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        try await store.write(flyers, mode: .create)
        try await store.finishBulkWrite()
        await store.close()
        return (url, flyers)
    }

    /// A new instance's catalogue over `url`, loaded as the change feed loads it.
    static func started(_ url: String) async throws -> (PostGISFlyerStore, FlyerCatalog) {
        let store = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        let catalog = FlyerCatalog(store: store)
        try await catalog.load()
        return (store, catalog)
    }

    /// Runs psql as the superuser on the database of `url`.
    static func psql(_ url: String, _ sql: String) throws -> String {
        let database = url.split(separator: "/").last?.split(separator: "?").first ?? ""
        return try TestPostgres.shared().psql(sql, database: String(database))
    }

    @Test("a new instance reads the stored index (no build) and answers as a brute-force search")
    func readBack() async throws {
        let (url, flyers) = try await Self.stored()
        let (store, catalog) = try await Self.started(url)
        defer { Task { await store.close() } }
        #expect(catalog.state.withLock { $0.readBack && $0.warm })
        #expect(catalog.count == flyers.count)
        try await PersistedIndexTests.expectExact(catalog, flyers, "stored index")
    }

    @Test("flyers added, moved and deleted by another instance after the index was stored are seen; answers stay exact")
    func otherInstance() async throws {
        let (url, flyers) = try await Self.stored()
        let other = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "other"))
        var now = flyers
        now[10].geometry = .point(try Coordinate(latitude: 48.8566, longitude: 2.3522))
        now[10].title = "Moved"
        let added = Flyer(
            id: "added", title: "Added", category: "food",
            geometry: .point(try Coordinate(latitude: 51.5, longitude: -0.12)))
        try await other.write([now[10], added], mode: .upsert)
        let deleted = now.remove(at: 20)
        #expect(try await other.delete(id: deleted.id))
        now.append(added)
        let (store, catalog) = try await Self.started(url)
        defer { Task { await store.close() } }
        #expect(catalog.state.withLock { $0.readBack } && catalog.count == now.count)
        try await PersistedIndexTests.expectExact(catalog, now, "changes since the index, at start")
        // And a write after the start, followed as the change feed follows it.
        let later = Flyer(
            id: "later", title: "Later", geometry: .point(try Coordinate(latitude: -33.87, longitude: 151.21)))
        try await other.write([later], mode: .create)
        await other.close()
        try await catalog.refresh()
        try await PersistedIndexTests.expectExact(catalog, now + [later], "a write after the start")
    }

    @Test("a row edited with the change log's trigger disabled is found by the comparison after start: built again")
    func editedBehindItsBack() async throws {
        let (url, flyers) = try await Self.stored()
        _ = try Self.psql(
            url,
            """
            ALTER TABLE flyers DISABLE TRIGGER USER;
            UPDATE flyers SET title = 'Edited behind its back' WHERE id = '\(flyers[5].id)';
            ALTER TABLE flyers ENABLE TRIGGER USER;
            """)
        var now = flyers
        now[5].title = "Edited behind its back"
        let (store, catalog) = try await Self.started(url)
        defer { Task { await store.close() } }
        let deadline = Date().addingTimeInterval(60)
        while try await catalog.flyer(id: flyers[5].id)?.title != now[5].title, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await PersistedIndexTests.expectExact(catalog, now, "after the comparison")
        // The index stored again holds the edit: the next instance reads it as it is.
        let (nextStore, next) = try await Self.started(url)
        defer { Task { await nextStore.close() } }
        #expect(next.state.withLock { $0.readBack })
        #expect(try await next.flyer(id: flyers[5].id)?.title == now[5].title)
    }

    @Test("a damaged index row is rejected (checksum), never used: the index is built and stored again")
    func damagedRow() async throws {
        let (url, flyers) = try await Self.stored()
        _ = try Self.psql(
            url,
            "UPDATE flyer_search_index SET data = overlay(data placing '\\xdeadbeef'::bytea from 9) WHERE name LIKE '%/slots/000000'"
        )
        let (store, catalog) = try await Self.started(url)
        defer { Task { await store.close() } }
        #expect(!catalog.state.withLock { $0.readBack })
        try await PersistedIndexTests.expectExact(catalog, flyers, "built again")
        let (nextStore, next) = try await Self.started(url)
        defer { Task { await nextStore.close() } }
        #expect(next.state.withLock { $0.readBack })
    }

    @Test("an import into an empty table with a bad row names the row and field and leaves nothing, indexes kept")
    func badRowInDirectImport() async throws {
        let server = try TestPostgres.shared()
        let url = server.url(try server.createDatabase())
        let store = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        defer { Task { await store.close() } }
        var csv = "id,title,lat,lon\n"
        for number in 0..<30_000 {
            csv += "f\(number),Flyer \(number),\(Double(number % 80)),\(Double(number % 170))\n"
        }
        csv += "bad,Bad,95,10\n"
        await #expect {
            _ = try await store.write(from: try CSVFlyerReader(Data(csv.utf8)), mode: .upsert, progress: nil)
        } throws: { error in
            "\(error)".contains("30002") && "\(error)".contains("lat")
        }
        #expect(
            try Self.psql(url, "SELECT count(*) FROM flyers").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(
            try Self.psql(url, "SELECT count(*) FROM flyer_changes").trimmingCharacters(in: .whitespacesAndNewlines)
                == "0")
        let indexes = try Self.psql(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'flyers'")
        for index in PostGISSchema.bulkIndexes { #expect(indexes.contains(index.name)) }
        #expect(indexes.contains(PostGISSchema.wordsIndex), "the rolled-back drop of the text index is undone too")
        // The same rows without the bad one: written, with one change-log entry for the whole import.
        csv.removeLast("bad,Bad,95,10\n".count)
        let written = try await store.write(from: try CSVFlyerReader(Data(csv.utf8)), mode: .upsert, progress: nil)
        #expect(written == 30_000)
        #expect(
            try Self.psql(url, "SELECT count(*) FROM flyer_changes").trimmingCharacters(in: .whitespacesAndNewlines)
                == "1")
        let rebuilt = try Self.psql(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'flyers'")
        for index in PostGISSchema.bulkIndexes { #expect(rebuilt.contains(index.name)) }
        // The text index is built after the commit, beside `finishBulkWrite`'s stored index, which waits for it.
        try await store.finishBulkWrite()
        #expect(try Self.wordsIndexState(url) == "t")
    }

    @Test("the words' text index, dropped, or left invalid by a build that stopped, is built again in the background")
    func wordsIndexBuiltAgain() async throws {
        let (url, _) = try await Self.stored()
        #expect(try Self.wordsIndexState(url) == "t", "built after the import")
        let store = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        defer { Task { await store.close() } }
        // What a build stopped half-way (a crash, the server going away) leaves: an index PostgreSQL does not use.
        _ = try Self.psql(url, "UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'flyers_words'::regclass")
        #expect(try Self.wordsIndexState(url) == "f")
        store.wordsIndex.ensure(store)
        await store.wordsIndex.wait()
        #expect(try Self.wordsIndexState(url) == "t")
        _ = try Self.psql(url, "DROP INDEX flyers_words")
        #expect(try Self.wordsIndexState(url) == "")
        store.wordsIndex.ensure(store)
        await store.wordsIndex.wait()
        #expect(try Self.wordsIndexState(url) == "t")
        // A text search the database answers still finds what the cache finds.
        let query = NearbyQuery(
            center: try Coordinate(latitude: 48.85, longitude: 2.35), limit: 5, at: PersistedIndexTests.now,
            text: try TextQuery("flyer 12"))
        let (other, catalog) = try await Self.started(url)
        defer { Task { await other.close() } }
        catalog.makeTextIndex()
        let found = try await PostGISSearch(store: store).nearby(query).matches.map(\.flyer.id)
        #expect(found.count == 5)
        #expect(found == (try await catalog.searcher().nearby(query).matches.map(\.flyer.id)))
    }

    /// `t` when the words' text index is there and valid, `f` when it is there and invalid, empty when it is not there.
    static func wordsIndexState(_ url: String) throws -> String {
        try psql(url, "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('\(PostGISSchema.wordsIndex)')")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
