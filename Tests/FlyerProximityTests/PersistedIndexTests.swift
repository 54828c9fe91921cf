import Foundation
import GRDB
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

/// The packed search index stored in the database: read back at start instead of built, brought up to
/// date from the change log, built again when it cannot be trusted, and exact all along.
@Suite("stored search index")
struct PersistedIndexTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// 4,000 flyers with areas, poles and the antimeridian, stored, and a catalogue that built and stored the index.
    static func stored() throws -> (TemporaryStore, [Flyer]) {
        let temporary = try TemporaryStore()
        var workload = FlyerWorkload(
            .init(
                seed: 9, uniformShare: 0.3, areaShare: 0.03, includePolar: true, inactiveShare: 0.2, referenceTime: now)
        )
        let flyers = (0..<4000).map { workload.flyer(number: $0) }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        try repository.write(flyers, mode: .create)
        _ = try FlyerCatalog(loading: repository)
        return (temporary, flyers)
    }

    /// The catalogue a starting service makes over the file at `path` (its own connection).
    static func opened(_ path: String) throws -> FlyerCatalog {
        try FlyerCatalog(store: try Store.open(path: path))
    }

    /// 300 queries (every tenth at a pole or on ±180°) answered by `catalog` as a brute-force search over `flyers` answers them.
    static func expectExact(_ catalog: FlyerCatalog, _ flyers: [Flyer], _ what: String) async throws {
        let reference = BruteForceReference(flyers)
        var workload = FlyerWorkload(.init(seed: 31, uniformShare: 0.3, includePolar: true))
        let radii: [Double?] = [nil, 200, 2000, 20_000, 300_000]
        for number in 0..<300 {
            var center = workload.queryPoint()
            if number % 10 == 0 {
                center = try Coordinate(
                    latitude: [89.99, -89.95, 65, -16.5][number / 10 % 4],
                    longitude: [180, -179.9995, 0][number / 40 % 3])
            }
            var query = NearbyQuery(
                center: center, radius: radii[number % radii.count], limit: 1 + number % 13, at: now,
                includeInactive: number % 4 == 0)
            if number % 7 == 0 {
                query.category = FlyerWorkload.categories[number % FlyerWorkload.categories.count].uppercased()
            }
            let got = try await catalog.nearby(query)
            let want = reference.nearby(query)
            let context = Comment(rawValue: "\(what): query \(number) at \(center)")
            try #require(got.matches.map(\.flyer.id) == want.matches.map(\.flyer.id), context)
            #expect(got.hasMore == want.hasMore, context)
            #expect(got.matches.map(\.flyer) == want.matches.map(\.flyer), context)
            for (a, b) in zip(got.matches, want.matches) { #expect(abs(a.distance - b.distance) <= 0.001, context) }
        }
    }

    @Test("a service start reads the stored index (warm at once) and answers as a brute-force search")
    func readBack() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        let catalog = try Self.opened(temporary.store.path)
        #expect(catalog.report.cache == "warm" && catalog.count == flyers.count)
        try await Self.expectExact(catalog, flyers, "stored index")
    }

    @Test(
        "flyers added, moved and deleted by another writer after the index was stored are applied at start; answers stay exact"
    )
    func otherWriter() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        var now = flyers
        let other = try SpatiaLiteFlyerStore(store: try Store.open(path: temporary.store.path))
        var moved = now[10]
        moved.geometry = .point(try Coordinate(latitude: 48.8566, longitude: 2.3522))
        moved.title = "Moved"
        now[10] = moved
        let added = Flyer(
            id: "added", title: "Added", category: "food",
            geometry: .point(try Coordinate(latitude: 51.5, longitude: -0.12)))
        now.append(added)
        try other.write([moved, added], mode: .upsert)
        #expect(try other.delete(id: now[20].id))
        now.remove(at: 20)
        let catalog = try Self.opened(temporary.store.path)
        #expect(catalog.report.cache == "warm" && catalog.count == now.count)
        try await Self.expectExact(catalog, now, "after another writer")
    }

    @Test(
        "a row edited with the change log's trigger set aside: the changed schema keeps the stored index out (SpatiaLite answers, exact) until the comparison with the table has built it again"
    )
    func editedBehindItsBack() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        var now = flyers
        let target = try #require(now.firstIndex { if case .point = $0.geometry { return true } else { return false } })
        let targetID = now[target].id
        try await temporary.store.database.write { db in
            let trigger =
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'flyer_changes_update'") ?? ""
            try db.execute(sql: "DROP TRIGGER flyer_changes_update")
            try db.execute(
                sql: "UPDATE flyers SET geom = MakePoint(2.3522, 48.8566, 4326) WHERE id = ?", arguments: [targetID])
            try db.execute(sql: trigger)
        }
        now[target].geometry = .point(try Coordinate(latitude: 48.8566, longitude: 2.3522))
        let catalog = try Self.opened(temporary.store.path)
        #expect(catalog.report.cache == "cold", "the trigger was dropped and made again: the change log proves nothing")
        let answered = try #require(try await catalog.searcher().flyer(id: targetID))
        #expect(
            answered.geometry == now[target].geometry, "SpatiaLite answers with the edited row, never the stale index")
        try await catalog.prepare()
        #expect(catalog.report.cache == "warm")
        try await Self.expectExact(catalog, now, "index built again")
        let reopened = try Self.opened(temporary.store.path)
        #expect(reopened.report.cache == "warm")
        try await Self.expectExact(reopened, now, "the index stored again")
    }

    @Test("a damaged index array is rejected (checksum), never used: the index is built and stored again")
    func damagedBlob() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        for name in ["slots", "anchors", "cell_point_start", "id_bytes"] {
            try await temporary.store.database.write { db in
                let chunk = "*/\(name)/000000"
                var bytes = try #require(
                    try Data.fetchOne(
                        db, sql: "SELECT data FROM flyer_search_index WHERE name GLOB ?", arguments: [chunk]))
                bytes[bytes.count / 2] ^= 0x5A
                try db.execute(
                    sql: "UPDATE flyer_search_index SET data = ? WHERE name GLOB ?", arguments: [bytes, chunk])
            }
            let catalog = try Self.opened(temporary.store.path)
            #expect(catalog.report.cache == "cold", "\(name)")
            try await catalog.prepare()
            try await Self.expectExact(catalog, flyers, "rebuilt after \(name) was damaged")
            #expect(try Self.opened(temporary.store.path).report.cache == "warm", "\(name)")
        }
    }

    @Test("a text record that does not decode, its checksum made to match, is read as an empty title, then replaced")
    func undecodableText() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        try await temporary.store.database.write { db in
            let starts = try #require(
                try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name GLOB '*/text_starts/000000'")
            )
            let first = Int(starts.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self) })
            let end = Int(starts.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) })
            var texts = try #require(
                try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name GLOB '*/text_bytes/000000'"))
            // Escape + 0x10 (a presence byte no record has) pairs, and an escape with nothing after it when odd.
            for offset in first..<end { texts[offset] = (offset - first) % 2 == 0 ? 255 : 0x10 }
            let metaData = try #require(
                try Data.fetchOne(db, sql: "SELECT data FROM flyer_search_index WHERE name = 'meta'"))
            var meta = try JSONDecoder().decode(PersistedFlyerIndex.Meta.self, from: metaData)
            #expect(meta.sizes["text_bytes"] == texts.count, "the texts fit in one row")
            meta.checksums["text_bytes"] = String(texts.withUnsafeBytes(Checksum.of), radix: 16)
            try db.execute(
                sql: "UPDATE flyer_search_index SET data = ? WHERE name GLOB '*/text_bytes/000000'", arguments: [texts])
            try db.execute(
                sql: "UPDATE flyer_search_index SET data = ? WHERE name = 'meta'",
                arguments: [try JSONEncoder().encode(meta)])
        }
        let catalog = try Self.opened(temporary.store.path)
        #expect(
            catalog.report.cache == "warm", "the index is read back: its records are decoded when answers need them")
        let searcher = try catalog.searcher()
        var differing: [Flyer] = []
        for flyer in flyers where try await searcher.flyer(id: flyer.id) != flyer { differing.append(flyer) }
        #expect(differing.count == 1)
        let damaged = try #require(differing.first)
        let read = try #require(try await searcher.flyer(id: damaged.id))
        #expect(read.title == "" && read.description == nil)
        try await catalog.prepare()
        try await Self.expectExact(catalog, flyers, "built again after the comparison with the table")
        #expect(try await catalog.searcher().flyer(id: damaged.id) == damaged)
    }

    @Test("another process's write is in the answers once the cache has followed the change log")
    func followsAnotherWriter() async throws {
        let (temporary, flyers) = try Self.stored()
        defer { temporary.remove() }
        let catalog = try Self.opened(temporary.store.path)
        var moved = try #require(flyers.first { if case .point = $0.geometry { return true } else { return false } })
        guard case .point(let point) = moved.geometry else { return }
        let other = try SpatiaLiteFlyerStore(store: try Store.open(path: temporary.store.path))
        moved.geometry = .point(try Coordinate(latitude: point.latitude, longitude: point.longitude + 0.001))
        moved.description = "moved by another process"
        try other.write([moved], mode: .upsert)
        try await catalog.refresh()
        let page = try await catalog.nearby(NearbyQuery(center: point, limit: 3, at: Self.now, includeInactive: true))
        let now = flyers.map { $0.id == moved.id ? moved : $0 }
        #expect(
            page
                == BruteForceReference(now).nearby(
                    NearbyQuery(center: point, limit: 3, at: Self.now, includeInactive: true)))
    }

    @Test(
        "every text field comes back from the stored index as written: absent, long, accented, with line breaks and emoji"
    )
    func textsRoundTrip() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let long = String(repeating: "Très long texte — ", count: 40)
        var flyers: [Flyer] = []
        for number in 0..<60 {
            let title: String = number % 3 == 0 ? long : "Flyer \(number) 🎈"
            let description: String? = number % 2 == 0 ? nil : "Ligne 1\nLigne 2\tfin"
            let address: String? = number % 5 == 0 ? nil : "\(number) Rue de l'Église, Köln"
            let category: String? = number % 4 == 0 ? nil : ["Food", "LOST", "sale"][number % 3]
            let url: String? = number % 7 == 0 ? nil : "https://example.org/\(number)?q=ä&r=1"
            let from: Date? = number % 6 == 0 ? Date(timeIntervalSince1970: 1_700_000_000.123) : nil
            let until: Date? = number % 6 == 1 ? Date(timeIntervalSince1970: 1_800_000_000.456) : nil
            let point = try Coordinate(latitude: 50 + Double(number) / 1000, longitude: 7 + Double(number) / 1000)
            flyers.append(
                Flyer(
                    id: "t\(number)", title: title, description: description, address: address, category: category,
                    url: url,
                    radiusM: 12.5 + Double(number), validFrom: from, validUntil: until, geometry: .point(point)))
        }
        let repository = try SpatiaLiteFlyerStore(store: temporary.store)
        try repository.write(flyers, mode: .create)
        _ = try FlyerCatalog(loading: repository)
        let catalog = try Self.opened(temporary.store.path)
        #expect(catalog.report.cache == "warm")
        let searcher = try catalog.searcher()
        for flyer in flyers {
            let got = try await searcher.flyer(id: flyer.id)
            let stored = try repository.flyer(id: flyer.id)
            #expect(
                got == flyer,
                "index: \(String(describing: got)), written: \(flyer), database: \(String(describing: stored))")
        }
        let page = try await catalog.nearby(
            NearbyQuery(
                center: try Coordinate(latitude: 50, longitude: 7), limit: 60, at: Self.now, includeInactive: true))
        let found: [Flyer] = page.matches.map(\.flyer).sorted { $0.id < $1.id }
        #expect(found == flyers.sorted { $0.id < $1.id })
    }

    @Test("a packed text record that is cut short, runs past its end or has bytes left over is not read")
    func malformedTexts() {
        let fields = PackedFlyerTexts.Fields(
            title: String(repeating: "é", count: 100), description: "d", address: nil, category: "food", url: nil)
        let bytes = PackedFlyerTexts.encode(fields)
        #expect(bytes.withUnsafeBytes(PackedFlyerTexts.decode) == fields)
        for cut in [0, 1, 2, bytes.count - 1] {
            #expect(Array(bytes.prefix(cut)).withUnsafeBytes(PackedFlyerTexts.decode) == nil, "cut at \(cut)")
        }
        #expect((bytes + [0]).withUnsafeBytes(PackedFlyerTexts.decode) == nil)
        var unknown = bytes
        unknown[0] |= 0x10
        #expect(unknown.withUnsafeBytes(PackedFlyerTexts.decode) == nil)
    }
}
