import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

@Suite("SpatiaLite and PostGIS give the same answers on the same flyers")
struct BackendAgreementTests {
    @Test(
        "600 queries over 30,000 generated flyers: SpatiaLite's cache, PostGIS's cache and PostGIS itself agree (ids, order, 1 mm)"
    )
    func sameAnswers() async throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        var workload = FlyerWorkload(
            .init(
                seed: 77, uniformShare: 0.3, areaShare: 0.02, includePolar: true, inactiveShare: 0.2, referenceTime: now
            ))
        let flyers = (0..<30_000).map { workload.flyer(number: $0) }
        try await FlyerBackend.spatialite.withCatalog { spatialite in
            try await FlyerBackend.postgis.withCatalog { postgis in
                try await spatialite.write(flyers, mode: .create)
                try await postgis.write(flyers, mode: .create)
                #expect(spatialite.count == flyers.count && postgis.count == flyers.count)
                let database = postgis.databaseSearch
                let radii: [Double?] = [nil, 100, 1000, 5000, 50_000]
                for number in 0..<600 {
                    var query = NearbyQuery(
                        center: workload.queryPoint(), radius: radii[number % radii.count], limit: 1 + number % 12,
                        at: now, includeInactive: number % 3 == 0)
                    if number % 7 == 0 {
                        query.category = FlyerWorkload.categories[number % FlyerWorkload.categories.count]
                    }
                    let reference = try await spatialite.nearby(query)
                    for (name, answer) in [
                        ("PostGIS cache", try await postgis.cache.searcher.nearby(query)),
                        ("PostGIS", try await database.nearby(query))
                    ] {
                        let context = Comment(rawValue: "\(name), query \(number) at \(query.center)")
                        try #require(answer.matches.map(\.flyer.id) == reference.matches.map(\.flyer.id), context)
                        #expect(answer.hasMore == reference.hasMore, context)
                        for (a, b) in zip(answer.matches, reference.matches) {
                            #expect(abs(a.distance - b.distance) <= 0.001, context)
                        }
                    }
                }
            }
        }
    }
}
