import Foundation
import GRDB
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

@Suite("bulk writes: packed spatial index, SpatiaLite column bytes, overlapped reading")
struct BulkWriteTests {
    @Test("stopping the read-ahead releases a caller waiting for the next batch (a write given up while it read)")
    func stopReleasesWaitingReader() throws {
        /// A flyer every 0.2 s.
        struct SlowSource: FlyerSource {
            var number = 0
            var fractionRead: Double { 0 }
            mutating func next() throws(FlyerInputError) -> Flyer? {
                Thread.sleep(forTimeInterval: 0.2)
                number += 1
                return Flyer(id: "slow\(number)", title: "Slow", geometry: .point(.zero))
            }
        }
        let reader = FlyerReadAhead(SlowSource(), batchSize: 1)
        #expect(try reader.next()?.flyers.count == 1)
        let released = DispatchSemaphore(value: 0)
        let waiting = Thread {
            // Waits for the next batch until `stop`, then takes what is left and ends.
            while (try? reader.next()) != nil {}
            released.signal()
        }
        waiting.start()
        Thread.sleep(forTimeInterval: 0.05)
        reader.stop()
        #expect(released.wait(timeout: .now() + 5) == .success, "the waiting caller was not released")
    }

    private let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func workload(seed: UInt64) -> FlyerWorkload {
        FlyerWorkload(.init(seed: seed, uniformShare: 0.4, areaShare: 0.05, includePolar: true, referenceTime: now))
    }

    private func triggerNames(_ store: Store) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'flyers' ORDER BY name")
        }
    }

    /// Row ids the R*Tree returns for a box, and the row ids whose geometry's bounding box meets it.
    private func boxQuery(_ db: Database, minX: Double, maxX: Double, minY: Double, maxY: Double) throws -> (
        index: Set<Int64>, scan: Set<Int64>
    ) {
        let index = try Int64.fetchAll(
            db, sql: "SELECT pkid FROM idx_flyers_geom WHERE xmax >= ? AND xmin <= ? AND ymax >= ? AND ymin <= ?",
            arguments: [minX, maxX, minY, maxY])
        let scan = try Int64.fetchAll(
            db,
            sql: """
                SELECT ROWID FROM flyers WHERE MbrMaxX(geom) >= ? AND MbrMinX(geom) <= ? AND MbrMaxY(geom) >= ? AND MbrMinY(geom) <= ?
                """, arguments: [minX, maxX, minY, maxY])
        return (Set(index), Set(scan))
    }

    @Test("a bulk write leaves a valid R*Tree that finds exactly what a full scan finds, and every trigger back")
    func packedIndex() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        let triggersBefore = try triggerNames(temporary.store)
        #expect(triggersBefore.contains("gii_flyers_geom") && triggersBefore.contains("ggi_flyers_geom"))
        // A few rows written one at a time first: the rebuild must cover them too.
        var generator = workload(seed: 11)
        try repository.write((0..<300).map { generator.flyer(number: $0) }, mode: .create)
        try repository.write((300..<30_300).map { generator.flyer(number: $0) }, mode: .create)
        #expect(try triggerNames(temporary.store) == triggersBefore)

        try temporary.store.database.read { db in
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('idx_flyers_geom')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_flyers_geom") == 30_300)
            var random = SeededRandom(seed: 5)
            for _ in 0..<200 {
                let x = random.unit() * 370 - 185, y = random.unit() * 190 - 95
                let width = random.unit() * 20, height = random.unit() * 10
                let found = try boxQuery(db, minX: x, maxX: x + width, minY: y, maxY: y + height)
                #expect(found.index == found.scan)
            }
            let edge = try boxQuery(db, minX: 179.9, maxX: 180, minY: -90, maxY: 90)
            #expect(!edge.scan.isEmpty && edge.index == edge.scan)
        }
    }

    @Test("after a bulk write, single writes and deletes keep the index up to date through the triggers")
    func triggersWorkAfterwards() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        var generator = workload(seed: 12)
        try repository.write((0..<25_000).map { generator.flyer(number: $0) }, mode: .create)
        try repository.write(
            [Flyer(id: "late", title: "Late", geometry: .point(try Coordinate(latitude: 10.5, longitude: -20.25)))],
            mode: .create)
        #expect(try repository.delete(id: "f0000000"))
        try temporary.store.database.read { db in
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('idx_flyers_geom')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_flyers_geom") == 25_000)
            let late = try boxQuery(db, minX: -20.3, maxX: -20.2, minY: 10.4, maxY: 10.6)
            let lateRow = try Int64.fetchOne(db, sql: "SELECT ROWID FROM flyers WHERE id = 'late'")
            #expect(late.index.contains(try #require(lateRow)))
        }
        // A geometry in another reference system is still refused once the triggers are back.
        #expect(throws: (any Error).self) {
            try temporary.store.database.write { db in
                try db.execute(sql: "UPDATE flyers SET geom = GeomFromText('POINT(1 1)', 3857) WHERE id = 'late'")
            }
        }
    }

    @Test("the index is packed once only for writes that are large, absolutely and against what is stored")
    func whenToRebuild() {
        #expect(SpatiaLiteFlyerStore.rebuildsIndex(expected: 1_000_000, stored: 0))
        #expect(SpatiaLiteFlyerStore.rebuildsIndex(expected: 20_000, stored: 160_000))
        #expect(!SpatiaLiteFlyerStore.rebuildsIndex(expected: 19_999, stored: 0))
        #expect(!SpatiaLiteFlyerStore.rebuildsIndex(expected: 20_000, stored: 160_001))
        #expect(!SpatiaLiteFlyerStore.rebuildsIndex(expected: 100_000, stored: 5_000_000))
    }

    @Test("a bulk write that fails leaves table, index and triggers as they were")
    func failedBulkWriteChangesNothing() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        var generator = workload(seed: 13)
        try repository.write((0..<100).map { generator.flyer(number: $0) }, mode: .create)
        let triggers = try triggerNames(temporary.store)
        var batch = (100..<25_100).map { generator.flyer(number: $0) }
        batch.append(try #require(try repository.flyer(id: "f0000042")))
        #expect(throws: FlyerStoreError.duplicateID("f0000042")) { try repository.write(batch, mode: .create) }
        #expect(try triggerNames(temporary.store) == triggers)
        try temporary.store.database.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM flyers") == 100)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_flyers_geom") == 100)
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('idx_flyers_geom')") == "ok")
        }
    }

    @Test("the geometry bytes written are the ones SpatiaLite makes from the same geometry")
    func columnBytesMatchSpatiaLite() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)]
        let hole = [(0.2, 0.2), (0.4, 0.2), (0.4, 0.4), (0.2, 0.2)]
        func ring(_ points: [(Double, Double)], dx: Double = 0) throws -> [Coordinate] {
            try points.map { try Coordinate(latitude: $0.1, longitude: $0.0 + dx) }
        }
        let flyers = [
            Flyer(id: "point", title: "P", geometry: .point(try Coordinate(latitude: -33.8688, longitude: 151.2093))),
            Flyer(id: "polygon", title: "A", geometry: .polygon([try ring(square), try ring(hole)])),
            Flyer(id: "multi", title: "M", geometry: .multiPolygon([[try ring(square)], [try ring(square, dx: 5)]]))
        ]
        try repository.write(flyers, mode: .create)
        let expected = [
            "point": "POINT(151.2093 -33.8688)",
            "polygon": "POLYGON((0 0, 1 0, 1 1, 0 0), (0.2 0.2, 0.4 0.2, 0.4 0.4, 0.2 0.2))",
            "multi": "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 0, 6 0, 6 1, 5 0)))"
        ]
        try temporary.store.database.read { db in
            for (id, text) in expected {
                let same = try Bool.fetchOne(
                    db, sql: "SELECT geom = GeomFromText(?, 4326) FROM flyers WHERE id = ?", arguments: [text, id])
                #expect(same == true, "\(id)")
            }
        }
        #expect(
            try repository.all().sorted { $0.id < $1.id }.map(\.geometry)
                == flyers.sorted { $0.id < $1.id }.map(\.geometry))
    }

    @Test(
        "a streamed CSV import with a bad row near the end writes nothing and names the line",
        arguments: FlyerBackend.allCases)
    func streamedImportRejectsBadRow(_ backend: FlyerBackend) async throws {
        try await backend.withStore { repository in
            var csv = CSVFlyers.header.joined(separator: ",") + "\n"
            for number in 0..<40_000 {
                csv += "n\(number),Flyer \(number),\(Double(number % 170) - 85),\(Double(number % 350) - 175),,,,,,,\n"
            }
            let good = csv
            csv += "bad,Broken,95.5,10,,,,,,,\n"
            let error = try await #require(throws: FlyerStoreError.self) {
                _ = try await repository.write(from: try CSVFlyerReader(Data(csv.utf8)), mode: .upsert, progress: nil)
            }
            guard case .invalidInput(let input) = error else {
                Issue.record("expected an input error, got \(error)")
                return
            }
            #expect(input.location == "line 40002" && input.field == "lat")
            #expect(try await repository.all().isEmpty)

            let written = try await repository.write(
                from: try CSVFlyerReader(Data(good.utf8)), mode: .upsert, progress: nil)
            #expect(written == 40_000)
            #expect(try await repository.all().count == 40_000)
            if let spatialite = repository as? SpatiaLiteFlyerStore {
                try await spatialite.store.database.read { db throws in
                    #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_flyers_geom") == 40_000)
                }
            }
        }
    }

    @Test(
        "an id given twice is refused naming both places: CSV lines, GeoJSON features, entries of a list",
        arguments: FlyerBackend.allCases)
    func repeatedIDs(_ backend: FlyerBackend) async throws {
        try await backend.withStore { repository in
            let csv = "id,title,lat,lon\na,First,1,1\nb,Second,2,2\n\na,Third,3,3\n"
            await #expect(
                throws: FlyerStoreError.invalidInput(
                    FlyerInputError(
                        location: "line 5", field: "id",
                        message: "'a' is already used by line 2; every flyer needs its own id"))
            ) {
                _ = try await repository.write(from: try CSVFlyerReader(Data(csv.utf8)), mode: .upsert, progress: nil)
            }
            let point =
                #"{"type":"Feature","id":"p","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"title":"t"}}"#
            let geojson =
                #"{"type":"FeatureCollection","features":["#
                + [point, point.replacingOccurrences(of: "\"p\"", with: "\"q\""), point].joined(separator: ",") + "]}"
            let error = try #require(throws: FlyerInputError.self) { try GeoJSONFlyers.read(Data(geojson.utf8)) }
            #expect(error.location == "features[2]" && error.message.contains("features[0]"))
            let twice = try GeoJSONFlyers.read(Data(point.utf8))[0]
            await #expect(throws: FlyerStoreError.repeatedID("p", first: 0, second: 2)) {
                _ = try await repository.write(
                    from: FlyerArraySource([twice, Flyer(id: "other", title: "o", geometry: twice.geometry), twice]),
                    mode: .upsert, progress: nil)
            }
            #expect(try await repository.all().isEmpty)
        }
    }
}
