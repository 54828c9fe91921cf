import Foundation
import Logging
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

@Suite("Text search (q): the same words found by the in-memory index, FTS5 and tsvector")
struct TextSearchTests {
    static let origin = Coordinate.clamped(latitude: 48.8566, longitude: 2.3522) ?? .zero
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// A point flyer `metres` north of the origin.
    static func flyer(
        _ id: String, _ title: String, north metres: Double, description: String? = nil, address: String? = nil,
        category: String? = nil
    ) throws -> Flyer {
        let point = try Geodesic.wgs84.direct(from: origin, bearing: 0, distance: metres).destination
        return Flyer(
            id: id, title: title, description: description, address: address, category: category,
            geometry: .point(point))
    }

    static func flyers() throws -> [Flyer] {
        let market = try [0.0, 90, 180, 270, 0].map {
            try Geodesic.wgs84.direct(from: origin, bearing: $0, distance: 150).destination
        }
        let marketCenter = try Geodesic.wgs84.direct(from: origin, bearing: 180, distance: 2000).destination
        let ring = try market.map { point in
            try Coordinate(
                latitude: point.latitude - origin.latitude + marketCenter.latitude,
                longitude: point.longitude - origin.longitude + marketCenter.longitude)
        }
        return [
            try flyer(
                "cafe-lumiere", "Café Lumière", north: 300, address: "12 Rue de l'Église", category: "food"),
            try flyer("cafeteria", "CAFETERIA Central", north: 100, category: "food"),
            try flyer("creme", "Crème brûlée stand", north: 500, description: "Sweet things"),
            try flyer(
                "obrien", "O'Brien's Pub", north: 800, description: "Live music & café au lait", category: "Music"),
            try flyer(
                "books", "Second-hand books", north: 1200, description: "Paperbacks, comics",
                address: "Schönhauser Allee 5"),
            try flyer("syntax", "Odd \"quotes\" * and NEAR(things) 'here':*", north: 1500),
            try flyer("far", "Café far away", north: 50_000),
            Flyer(id: "market", title: "Marché aux puces", geometry: .polygon([ring]))
        ]
    }

    /// (q, the ids nearest first from the origin without a radius).
    static let cases: [(String, [String])] = [
        ("caf", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("CAFÉ", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("Cafe\u{301}", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("lumiere CAF", ["cafe-lumiere"]),
        ("crème brulee", ["creme"]),
        ("eglise", ["cafe-lumiere"]),
        ("schön", ["books"]),
        ("schon allee", ["books"]),
        ("o'brien", ["obrien"]),
        ("second-hand", ["books"]),
        ("sweet", ["creme"]),
        ("music", ["obrien"]),
        ("marche puces", ["market"]),
        ("\"caf\" OR \"books\"", []),
        ("caf*", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("-caf", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("^caf", ["cafeteria", "cafe-lumiere", "obrien", "far"]),
        ("NEAR(things)", ["syntax"]),
        ("'here':*", ["syntax"]),
        ("caf & !lumiere", ["cafe-lumiere"]),
        ("quotes\" OR \"x", []),
        ("title:odd", []),
        ("odd AND", ["syntax"]),
        ("zzz", [])
    ]

    @Test("Words fold case, accents and compatibility forms; punctuation separates")
    func words() throws {
        var folder = SearchWords()
        #expect(folder.words(of: "Café LUMIÈRE") == ["cafe", "lumiere"])
        #expect(folder.words(of: "Cafe\u{301}") == ["cafe"])
        #expect(folder.words(of: "ﬁsh＆ＣＨＩＰＳ") == ["fish", "chips"])
        #expect(folder.words(of: "O'Brien's \"pub\"*(near)") == ["o", "brien", "s", "pub", "near"])
        #expect(folder.words(of: "Ærø Straße 2b") == ["ærø", "straße", "2b"])
        #expect(folder.words(of: "a A á b") == ["a", "a", "a", "b"], "words(of:) keeps repeats")
        let many = (1...40).map { "w\($0 % 25)" }.joined(separator: " ")
        #expect(
            folder.words(ofFields: ["Café cafe", many, nil, "CAFÉ W3 new"])
                == ["cafe"] + (1...24).map { "w\($0)" } + ["w0", "new"],
            "distinct in order of first appearance, past the words compared one by one")
        let flyer = Flyer(
            id: "f", title: "Fish & Chips", description: "fish, chips; Ærø", radiusM: 0,
            geometry: .point(try Coordinate(latitude: 1, longitude: 2)))
        #expect(folder.stored(flyer) == "fish chips ærø")
        #expect(try TextQuery("caf* OR \"x\"").words == ["caf", "or", "x"])
        #expect(try TextQuery("caf caf CAF").words == ["caf"])
        for hostile in ["*", "\"", "'':*", "", "   ", "&|!()"] {
            #expect(throws: TextQueryError.noWords) { try TextQuery(hostile) }
        }
        #expect(throws: TextQueryError.tooManyWords(17)) {
            try TextQuery((1...17).map { "w\($0)" }.joined(separator: " "))
        }
    }

    @Test(
        "The first text search after a load is the database's: the word index is made aside, then the cache answers",
        arguments: FlyerBackend.allCases)
    func firstTextSearchDoesNotWait(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            try await store.write(try Self.flyers(), mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            let packed = try #require(
                (catalog.cache as? StoredIndexCache)?.packed ?? (catalog.cache as? PostGISIndexCache)?.packed)
            let searcher = catalog.cache.searcher
            #expect(!packed.base.index.hasWords)
            let expected = ["cafeteria", "cafe-lumiere", "obrien", "far"]
            #expect(try await Self.ids(searcher, "caf") == expected, "before the words: the database's answer")
            let deadline = ContinuousClock.now + .seconds(30)
            while !packed.base.index.hasWords, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(packed.base.index.hasWords, "the first text search started the word index aside")
            #expect(try await Self.ids(searcher, "caf") == expected, "the cache's answer")
        }
    }

    @Test(
        "The same cases find the same flyers in the cache and in the database itself", arguments: FlyerBackend.allCases)
    func sameOnBothPaths(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            try await store.write(try Self.flyers(), mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            catalog.makeTextIndex()  // the cache's own text search, not the database's while it makes it
            try await Self.check(catalog, backend)
        }
    }

    @Test("Edits keep the text index in step: insert, replace, delete, import", arguments: FlyerBackend.allCases)
    func edits(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            try await store.write(try Self.flyers(), mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            catalog.makeTextIndex()  // the cache's own text search, not the database's while it makes it
            // Replaced: the old words are gone, the new ones found.
            try await catalog.write(
                [try Self.flyer("cafe-lumiere", "Boulangerie Étoile", north: 300, category: "food")], mode: .upsert)
            try await catalog.write([try Self.flyer("tea", "Teahouse Ümit", north: 50)], mode: .create)
            #expect(try await catalog.delete(id: "obrien"))
            for searcher in [catalog.cache.searcher, catalog.databaseSearch] {
                #expect(try await Self.ids(searcher, "caf") == ["cafeteria", "far"])
                #expect(try await Self.ids(searcher, "lumiere") == [])
                #expect(try await Self.ids(searcher, "etoile boul") == ["cafe-lumiere"])
                #expect(try await Self.ids(searcher, "umit") == ["tea"])
                #expect(try await Self.ids(searcher, "music") == [])
            }
            // An import (upsert of many through a source) replaces words too.
            var imported: [Flyer] = []
            for number in 0..<300 {
                let point = try Geodesic.wgs84.direct(from: Self.origin, bearing: 90, distance: Double(number) * 10)
                    .destination
                imported.append(
                    Flyer(
                        id: "imp\(number)", title: number == 7 ? "Épicerie fine" : "Flyer \(number)",
                        geometry: .point(point)))
            }
            _ = try await store.write(from: FlyerArraySource(imported), mode: .upsert, progress: nil)
            try await catalog.refresh()
            catalog.makeTextIndex()
            for searcher in [catalog.cache.searcher, catalog.databaseSearch] {
                #expect(try await Self.ids(searcher, "epic") == ["imp7"])
            }
        }
    }

    @Test(
        "A large import (the bulk path) is found by text in the database as in the cache",
        arguments: FlyerBackend.allCases)
    func bulkImport(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            var flyers: [Flyer] = []
            for number in 0..<20_500 {
                let title = number % 5000 == 3 ? "Café n°\(number)" : "Shop \(number)"
                let point = try Geodesic.wgs84.direct(
                    from: Self.origin, bearing: Double(number % 360), distance: Double(number)
                ).destination
                flyers.append(Flyer(id: String(format: "b%05d", number), title: title, geometry: .point(point)))
            }
            _ = try await store.write(from: FlyerArraySource(flyers), mode: .upsert, progress: nil)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            catalog.makeTextIndex()  // the cache's own text search, not the database's while it makes it
            let expected = ["b00003", "b05003", "b10003", "b15003", "b20003"]
            for searcher in [catalog.cache.searcher, catalog.databaseSearch] {
                #expect(try await Self.ids(searcher, "cafe").sorted() == expected)
                #expect(try await Self.ids(searcher, "shop 1999").count == 11)
            }
        }
    }

    @Test(
        "Common words (the grid walk), rare ones (measured one by one) and short prefixes agree with a brute-force search",
        arguments: FlyerBackend.allCases)
    func agreesWithBruteForce(_ backend: FlyerBackend) async throws {
        var workload = FlyerWorkload(.init(seed: 5, uniformShare: 0.3, areaShare: 0.02, inactiveShare: 0.1))
        let vocabulary = ["shop", "market", "bakery", "books", "café", "crème", "zebra", "quay", "xylophone"]
        let flyers = (0..<20_000).map { number -> Flyer in
            var flyer = workload.flyer(number: number)
            // Word k of the vocabulary in about one flyer of 2^k: "shop" in half, "xylophone" in 1 of 256.
            let words = vocabulary.enumerated().filter { number % (1 << ($0.offset + 1)) == 0 }.map(\.element)
            flyer.title = (words + ["n\(number)"]).joined(separator: " ")
            return flyer
        }
        try await backend.withStore { store in
            try await store.write(Array(flyers.prefix(18_000)), mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            catalog.makeTextIndex()  // the cache's own text search, not the database's while it makes it
            // The rest written afterwards: on SpatiaLite they lie on top of the stored packed index.
            try await catalog.write(Array(flyers.suffix(2_000)), mode: .create)
            let now = workload.settings.referenceTime
            let queries = [
                "shop", "market", "caf", "creme shop", "xylo", "zebra quay", "s", "n1", "n19999", "b", "q", "n",
                "n xylo"
            ]
            for number in 0..<120 {
                let q = queries[number % queries.count]
                let text = try TextQuery(q)
                let query = NearbyQuery(
                    center: workload.queryPoint(), radius: number % 3 == 0 ? 200_000 : nil, limit: 1 + number % 15,
                    at: now, includeInactive: number % 4 == 0, text: text)
                let expected = flyers.filter { text.matches($0) && (query.includeInactive || $0.isActive(at: now)) }
                    .compactMap { NearbyMatch($0, from: query.center, within: query.radius ?? .infinity, after: nil) }
                    .sorted { $0.position.precedes($1.distance, $1.flyer.id) }
                    .prefix(query.limit).map(\.flyer.id)
                for (name, searcher) in [("cache", catalog.cache.searcher), ("database", catalog.databaseSearch)] {
                    let answer = try await searcher.nearby(query)
                    #expect(
                        answer.matches.map(\.flyer.id) == Array(expected),
                        Comment(rawValue: "\(backend) \(name): query \(number) q=\(q) at \(query.center)"))
                }
            }
        }
    }

    @Test("GET /v1/flyers/nearby?q= over a real socket: nearest first with the words; a q without words is a 400")
    func overHTTP() async throws {
        try await FlyerServer.with(.spatialite) { server in
            try await server.plugin?.catalog.write(try Self.flyers(), mode: .create)
            let center = "lat=\(Self.origin.latitude)&lon=\(Self.origin.longitude)"
            let found = try await server.send("GET", "/v1/flyers/nearby?\(center)&q=Caf%C3%A9%20%22OR%22")
            #expect(found.status == 200)
            #expect(try (found.json()["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [])
            let cafes = try await server.send("GET", "/v1/flyers/nearby?\(center)&q=CAF&limit=3")
            #expect(
                try (cafes.json()["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                    == ["cafeteria", "cafe-lumiere", "obrien"])
            #expect(try cafes.json()["next_cursor"] is String)
            let refused = try await server.send("GET", "/v1/flyers/nearby?\(center)&q=%2A%3A%28%29")
            #expect(refused.status == 400)
            #expect(try refused.error().code == "invalid_parameter")
            #expect(try refused.error().message.contains("'q'"))
        }
    }

    @Test("PostGIS: flyers stored before text search (no words yet) are given their words when a store opens")
    func postgisFillsWords() async throws {
        let database = try FlyerBackend.postgis.makeDatabase()
        guard case .postgis(let url) = database else { return }
        let first = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        try await first.write(try Self.flyers(), mode: .create)
        try await first.client.query("UPDATE flyers SET words = NULL", logger: Logger(label: "test"))
        #expect(try await Self.ids(PostGISSearch(store: first), "caf") == [])
        await first.close()
        let reopened = try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        #expect(
            try await Self.ids(PostGISSearch(store: reopened), "caf") == ["cafeteria", "cafe-lumiere", "obrien", "far"])
        await reopened.close()
    }

    /// Every case through the cache and the database, nearest first, with a radius, by pages, and by title.
    static func check(_ catalog: FlyerCatalog, _ backend: FlyerBackend) async throws {
        let flyers = try Self.flyers()
        for (name, searcher) in [("cache", catalog.cache.searcher), ("database", catalog.databaseSearch)] {
            for (q, expected) in cases {
                let context = Comment(rawValue: "\(backend) \(name): q=\(q)")
                #expect(try await ids(searcher, q) == expected, context)
                let within = try await ids(searcher, q, radius: 1000)
                #expect(
                    within == expected.filter { $0 != "far" && $0 != "market" && $0 != "syntax" && $0 != "books" },
                    context)
                let text = try TextQuery(q)
                let titled = try await searcher.byTitle(
                    limit: 50, category: nil, at: now, includeInactive: false, after: nil, text: text)
                let byTitle = flyers.filter { text.matches($0) }.sorted {
                    TitlePosition(title: $0.title, id: $0.id).precedes($1.title, $1.id)
                }
                #expect(titled.flyers.map(\.id) == byTitle.map(\.id), context)
            }
            let first = try await searcher.nearby(
                NearbyQuery(center: origin, limit: 2, at: now, text: try TextQuery("caf")))
            #expect(first.matches.map(\.flyer.id) == ["cafeteria", "cafe-lumiere"] && first.hasMore)
            let second = try await searcher.nearby(
                NearbyQuery(
                    center: origin, limit: 2, at: now, after: first.matches.last?.position, text: try TextQuery("caf")))
            #expect(second.matches.map(\.flyer.id) == ["obrien", "far"] && !second.hasMore)
            let food = try await searcher.nearby(
                NearbyQuery(center: origin, category: "FOOD", at: now, text: try TextQuery("caf")))
            #expect(food.matches.map(\.flyer.id) == ["cafeteria", "cafe-lumiere"])
        }
    }

    static func ids(_ searcher: any FlyerSearching, _ q: String, radius: Double? = nil) async throws -> [String] {
        try await searcher.nearby(
            NearbyQuery(center: origin, radius: radius, limit: 50, at: now, text: try TextQuery(q))
        )
        .matches.map(\.flyer.id)
    }
}
