import Foundation
import GRDB
import GRDBSQLite
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

/// Writes beside searches: a write's cost does not grow with the table, searches do not wait for writes, and
/// storing the search index again blocks no writer.
@Suite("writers beside readers")
struct WritersBesideReadersTests {
    /// Pages the writer's connection asks SQLite's page cache for while `body` runs.
    static func pagesRead(_ store: Store, _ body: () throws -> Void) throws -> Int32 {
        func pages(reset: Bool) throws -> Int32 {
            try store.database.writeWithoutTransaction { db in
                var hits: Int32 = 0, misses: Int32 = 0, highest: Int32 = 0
                sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_HIT, &hits, &highest, reset ? 1 : 0)
                sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highest, reset ? 1 : 0)
                return hits + misses
            }
        }
        _ = try pages(reset: true)
        try body()
        return try pages(reset: false)
    }

    @Test("one-flyer writes read no more of a table of 40,000 flyers than of one of 2,000")
    func writeCostDoesNotGrowWithTheTable() throws {
        /// Pages read by ten one-flyer writes into a table of `stored` flyers (written in batches small enough
        /// to keep SQLite's row-by-row R*Tree, as the ten writes do).
        func pages(stored: Int) throws -> Int32 {
            let temporary = try TemporaryStore()
            defer { temporary.remove() }
            let repository = try SpatiaLiteFlyerStore(store: temporary.store)
            var workload = FlyerWorkload(.init(seed: 5))
            for start in stride(from: 0, to: stored, by: 2_000) {
                try repository.write((start..<start + 2_000).map { workload.flyer(number: $0) }, mode: .create)
            }
            let ten = (0..<10).map { workload.flyer(number: stored + $0) }
            return try Self.pagesRead(temporary.store) {
                for flyer in ten { try repository.write([flyer], mode: .create) }
            }
        }
        let small = try pages(stored: 2_000), large = try pages(stored: 40_000)
        #expect(
            large * 2 <= small * 3,
            "pages read by ten one-flyer writes: \(small) into 2,000 flyers, \(large) into 40,000")
    }

    @Test("searches answer while many API writes wait for another process's write lock")
    func searchesDoNotWaitForWrites() async throws {
        let database = try FlyerBackend.spatialite.makeDatabase()
        defer { database.remove() }
        guard case .spatialite(let temporary) = database else { return }
        try await FlyerServer.with(database, busyTimeout: 60) { server in
            #expect(try await server.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "first")).status == 201)
            let other = try await OtherWritersTests.holdWriteLock(temporary.store.path)
            defer { other.stop() }
            // More waiting writes than there are threads for Swift's tasks.
            let writers = 4 * ProcessInfo.processInfo.activeProcessorCount
            let client = server.client
            let writes = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for number in 0..<writers {
                        group.addTask {
                            try await client.request(
                                "POST", "/v1/flyers", body: Data(FlyerIDTests.feature(id: "w\(number)").utf8),
                                timeout: 90
                            ).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            for _ in 0..<50 {
                let answer = try await server.send("GET", "/v1/flyers/nearby?lat=52.5&lon=13.4&radius_m=5000")
                try #require(answer.status == 200, "\(answer.text)")
            }
            other.stop()
            #expect(
                try await writes.value == Array(repeating: 201, count: writers),
                "every write waited for the lock and was written")
        }
    }

    /// `flyer` moved a little east (a point) or retitled (an area).
    static func edited(_ flyer: Flyer) throws -> Flyer {
        var edited = flyer
        edited.title = "Edited " + flyer.title
        if case .point(let point) = flyer.geometry, abs(point.latitude) < 89 {
            edited.geometry = .point(
                try Coordinate(
                    latitude: point.latitude,
                    longitude: point.longitude < 179 ? point.longitude + 0.01 : point.longitude - 0.01))
        }
        return edited
    }

    /// The stored `meta` row and `changed` row of the search index.
    static func storedRows(_ store: Store) throws -> (meta: Data?, changed: PersistedFlyerIndex.Changed?) {
        try store.database.read { db in
            let meta = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'")
            let changed = try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'changed'")
            return (meta, try changed.map { try JSONDecoder().decode(PersistedFlyerIndex.Changed.self, from: $0) })
        }
    }

    @Test(
        "past 5,000 changes only the ids changed since the stored index are stored: its arrays stay, and a start whose change log no longer reaches them reads those flyers and answers exactly"
    )
    func changedIDsStoredInsteadOfTheIndex() async throws {
        let (temporary, original) = try PersistedIndexTests.stored()
        defer { temporary.remove() }
        let catalog = try PersistedIndexTests.opened(temporary.store.path)
        let before = try Self.storedRows(temporary.store)
        var workload = FlyerWorkload(
            .init(seed: 12, uniformShare: 0.3, areaShare: 0.03, referenceTime: PersistedIndexTests.now))
        let added = (original.count..<original.count + 5_001).map { workload.flyer(number: $0) }
        try await catalog.write(added, mode: .create)
        let first = try Self.storedRows(temporary.store)
        #expect(first.meta == before.meta, "the stored index was not written again")
        let noted = try #require(first.changed, "the changed ids were stored")
        #expect(Set(noted.ids) == Set(added.map(\.id)))
        // 6,000 more (moves of stored flyers): the change log (10,000 entries) no longer reaches back to the index.
        let moved = try (original.prefix(4_000) + added.prefix(2_000)).map(Self.edited)
        try await catalog.write(moved, mode: .upsert)
        let second = try Self.storedRows(temporary.store)
        #expect(second.meta == before.meta)
        #expect(try #require(second.changed).change > noted.change)
        let byID = Dictionary(uniqueKeysWithValues: moved.map { ($0.id, $0) })
        let expected = (original + added).map { byID[$0.id] ?? $0 }
        let reopened = try PersistedIndexTests.opened(temporary.store.path)
        #expect(reopened.report.cache == "warm" && reopened.count == expected.count)
        try await PersistedIndexTests.expectExact(reopened, expected, "read back with the changed ids")
        try await reopened.prepare()
        #expect(
            try Self.storedRows(temporary.store).meta == before.meta,
            "the comparison with the table found no difference")
        try await PersistedIndexTests.expectExact(catalog, expected, "the running catalogue")
    }

    @Test(
        "past compactAfter flyers on top, the index is built again and stored off the cooperative threads; writes go on meanwhile and every answer stays exact"
    )
    func compaction() async throws {
        let (temporary, original) = try PersistedIndexTests.stored()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        let catalog = FlyerCatalog(store: repository, compactAfter: 1_000)
        #expect(try catalog.openStoredIndex())
        let before = try Self.storedRows(temporary.store)
        var workload = FlyerWorkload(.init(seed: 13, uniformShare: 0.3, referenceTime: PersistedIndexTests.now))
        let added = (original.count..<original.count + 1_001).map { workload.flyer(number: $0) }
        try await catalog.write(added, mode: .create)
        let late = workload.flyer(number: 9_999)
        try await catalog.write([late], mode: .create)
        try await ManagedProcess.waitUntil(timeout: 60, "the index to be built again and stored") {
            (try? Self.storedRows(temporary.store).meta) != before.meta
                && ((catalog.cache as? StoredIndexCache)?.packed.overlayCount ?? 0) <= 1
        }
        let expected = original + added + [late]
        try await PersistedIndexTests.expectExact(catalog, expected, "after the index was built again")
        let reopened = try PersistedIndexTests.opened(temporary.store.path)
        #expect(reopened.report.cache == "warm" && reopened.count == expected.count)
        try await PersistedIndexTests.expectExact(reopened, expected, "the index stored again")
    }

    /// The names of the stored index's array rows.
    static func arrayRows(_ store: Store) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM flyer_search_index WHERE name NOT IN ('meta', 'changed', ?)",
                arguments: [ChangeLogProof.rowName])
        }
    }

    @Test(
        "storing the index again takes one transaction per chunk: a writer with a 0.2 s busy timeout writes between chunks, a reader sees the previous index whole until the meta row, then the new one"
    )
    func chunkedSave() async throws {
        let (temporary, original) = try PersistedIndexTests.stored()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        let other = try SpatiaLiteFlyerStore(store: try Store.open(path: temporary.store.path, busyTimeout: 0.2))
        guard case .found(_, let previous, _) = try other.storedIndex(cellSize: 0.05).found else {
            return #expect(Bool(false), "no stored index")
        }
        let built = try repository.buildIndex(cellSize: 0.05)
        var during: [Flyer] = []
        try repository.saveIndex(built.index, change: built.change, chunkBytes: 16_384) {
            let flyer = Flyer(
                id: "during-\(during.count)", title: "Written while the index is stored",
                geometry: .point(try Coordinate(latitude: 48.85 + Double(during.count) / 1000, longitude: 2.35)))
            try other.write([flyer], mode: .create)
            during.append(flyer)
            guard case .found(let index, let meta, _) = try other.storedIndex(cellSize: 0.05).found else {
                return #expect(Bool(false), "after chunk \(during.count) the stored index could not be read")
            }
            #expect(meta == previous && index.count == original.count, "after chunk \(during.count)")
        }
        #expect(during.count > 20, "chunks written")
        guard case .found(let index, let meta, _) = try other.storedIndex(cellSize: 0.05).found else {
            return #expect(Bool(false), "no stored index")
        }
        #expect(meta.change == built.change && meta.generation != previous.generation && index.count == original.count)
        #expect(
            try Self.arrayRows(temporary.store).allSatisfy { $0.hasPrefix(meta.generation + "/") },
            "the previous generation's rows are gone")
        let reopened = try PersistedIndexTests.opened(temporary.store.path)
        #expect(reopened.report.cache == "warm" && reopened.count == original.count + during.count)
        try await PersistedIndexTests.expectExact(
            reopened, original + during, "the index stored beside writes, with the writes applied")
    }

    @Test("a save cut short leaves the previous index in use, and the next save removes the rows it left")
    func saveCutShort() async throws {
        let (temporary, original) = try PersistedIndexTests.stored()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        guard case .found(_, let previous, _) = try repository.storedIndex(cellSize: 0.05).found else {
            return #expect(Bool(false), "no stored index")
        }
        let built = try repository.buildIndex(cellSize: 0.05)
        struct Interrupted: Error {}
        var chunks = 0
        #expect(throws: FlyerStoreError.self) {
            try repository.saveIndex(built.index, change: built.change, chunkBytes: 16_384) {
                chunks += 1
                if chunks == 5 { throw Interrupted() }
            }
        }
        #expect(
            try Self.arrayRows(temporary.store).contains { !$0.hasPrefix(previous.generation + "/") },
            "the cut-short save left rows")
        let reopened = try PersistedIndexTests.opened(temporary.store.path)
        #expect(reopened.report.cache == "warm" && reopened.count == original.count)
        try await PersistedIndexTests.expectExact(reopened, original, "the previous index")
        try repository.saveIndex(built.index, change: built.change)
        guard case .found(_, let meta, _) = try repository.storedIndex(cellSize: 0.05).found else {
            return #expect(Bool(false), "no stored index")
        }
        #expect(try Self.arrayRows(temporary.store).allSatisfy { $0.hasPrefix(meta.generation + "/") })
    }

    @Test(
        "the index is built again past compactAfter flyers on top, or a tenth of the catalogue when that is more, so that steady writes to a large catalogue do not rebuild it back to back"
    )
    func compactionThresholdGrows() {
        #expect(StoredIndexCache.compactionThreshold(compactAfter: 20_000, indexed: 4_000) == 20_000)
        #expect(StoredIndexCache.compactionThreshold(compactAfter: 20_000, indexed: 200_000) == 20_000)
        #expect(StoredIndexCache.compactionThreshold(compactAfter: 20_000, indexed: 1_000_000) == 100_000)
    }
}
