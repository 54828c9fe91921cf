import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

@Suite("nearby agrees with a brute-force geodesic search")
struct NearbyBruteForceTests {
    @Test(
        "1,200 random queries over 100,500 stored flyers: same ids, same order, distances within 1 mm (cache and, every 4th, the database alone)",
        arguments: FlyerBackend.allCases)
    func matchesBruteForce(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            let now = Date(timeIntervalSince1970: 1_750_000_000)
            var workload = FlyerWorkload(
                .init(
                    seed: 2024, uniformShare: 0.3, areaShare: 0.012, includePolar: true,
                    inactiveShare: 0.2, referenceTime: now))
            var flyers = (0..<100_000).map { workload.flyer(number: $0) }
            // Exact ties: copies of existing flyers under other ids must come out ordered by id.
            for copy in 0..<500 {
                var twin = flyers[copy * 97]
                twin.id = "t\(copy)"
                flyers.append(twin)
            }
            try await store.write(flyers, mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            #expect(catalog.count == flyers.count)
            // Without a warm cache the database answers by itself: it must give the same answers (every 4th query).
            let database = catalog.databaseSearch
            let reference = BruteForceReference(flyers)

            let radii: [Double?] = [nil, nil, nil, 30, 150, 500, 2000, 5000, 20_000, 250_000]
            var compared = 0, nonEmpty = 0, bearings = 0
            for number in 0..<1200 {
                var center = workload.queryPoint()
                if number % 10 == 0 {
                    // Straight at the awkward places: the poles and both sides of the antimeridian.
                    let latitude = [90, -90, 89.99, -89.95, 0.001, 65.0, -16.5][number / 10 % 7]
                    let longitude = [180, -180, 179.9999, -179.9995, 0, 45][number / 70 % 6]
                    center = try Coordinate(latitude: latitude, longitude: longitude)
                }
                var query = NearbyQuery(
                    center: center, radius: radii[number % radii.count], limit: 1 + number % 17,
                    at: now, includeInactive: number % 5 == 0)
                if number % 6 == 0 {
                    query.category = FlyerWorkload.categories[number % FlyerWorkload.categories.count].uppercased()
                }
                let got = try await catalog.nearby(query)
                let want = reference.nearby(query)
                try expectSame(got, want, query)
                // A bearing the search solved with the distance is the one the answer would solve on its own.
                for match in got.matches {
                    guard let bearing = match.bearing else { continue }
                    #expect(bearing == Geodesic.wgs84.inverse(from: center, to: match.nearest).initialBearing)
                    bearings += 1
                }
                if number % 4 == 0 { try expectSame(try await database.nearby(query), want, query) }
                compared += 1
                if !want.matches.isEmpty { nonEmpty += 1 }
                if got.hasMore, number % 4 == 0, let last = got.matches.last {
                    query.after = last.position
                    try expectSame(try await catalog.nearby(query), reference.nearby(query), query)
                    compared += 1
                }
            }
            #expect(compared >= 1200)
            #expect(nonEmpty > 800)
            #expect(bearings > 1000, "the packed index measures point flyers' bearings with their distances")
        }
    }

    private func expectSame(_ got: NearbyMatches, _ want: NearbyMatches, _ query: NearbyQuery) throws {
        let context = Comment(
            rawValue: "query \(query.center) radius \(query.radius.map { "\($0)" } ?? "none") limit \(query.limit)")
        try #require(got.matches.map(\.flyer.id) == want.matches.map(\.flyer.id), context)
        #expect(got.hasMore == want.hasMore, context)
        for (a, b) in zip(got.matches, want.matches) {
            #expect(abs(a.distance - b.distance) <= 0.001, context)
        }
    }
}
