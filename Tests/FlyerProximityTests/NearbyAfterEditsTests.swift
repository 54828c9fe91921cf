import Foundation
import MeridianCore
import Testing
import Workloads

@testable import FlyerProximity

@Suite("nearby stays exact after removals and moves in crowded grid cells")
struct NearbyAfterEditsTests {
    @Test("dense clusters, a third removed, a fifth moved: same answers as brute force")
    func matchesBruteForceAfterEdits() throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        var workload = FlyerWorkload(.init(seed: 7, uniformShare: 0, areaShare: 0.01, referenceTime: now))
        var flyers = (0..<30_000).map { workload.flyer(number: $0) }
        let index = FlyerIndex()
        index.upsert(flyers)
        // Removals and moves after cells have been split into parts.
        for number in stride(from: 0, to: flyers.count, by: 3) { #expect(index.remove(id: flyers[number].id)) }
        var moved: [Flyer] = []
        for number in stride(from: 1, to: flyers.count, by: 5) where number % 3 != 0 {
            var flyer = flyers[number]
            flyer.geometry = flyers[(number * 7 + 11) % flyers.count].geometry
            moved.append(flyer)
            flyers[number] = flyer
        }
        index.upsert(moved)
        let remaining = flyers.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        #expect(index.count == remaining.count)
        let reference = BruteForceReference(remaining)

        let radii: [Double?] = [nil, 50, 400, 5000]
        for number in 0..<400 {
            let query = NearbyQuery(
                center: workload.queryPoint(), radius: radii[number % radii.count],
                limit: 1 + number % 12, at: now, includeInactive: number % 2 == 0)
            let got = index.nearby(query), want = reference.nearby(query)
            let context = Comment(rawValue: "query \(query.center) radius \(query.radius.map { "\($0)" } ?? "none")")
            try #require(got.matches.map(\.flyer.id) == want.matches.map(\.flyer.id), context)
            #expect(got.hasMore == want.hasMore, context)
        }
    }
}
