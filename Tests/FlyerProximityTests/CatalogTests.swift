import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("catalogue on both backends: store and cache stay in step; near-me without a location")
struct CatalogTests {
    private func point(
        _ id: String, _ title: String, _ latitude: Double, _ longitude: Double, category: String? = nil,
        until: Date? = nil
    ) throws -> Flyer {
        Flyer(
            id: id, title: title, category: category, validUntil: until,
            geometry: .point(try Coordinate(latitude: latitude, longitude: longitude)))
    }

    @Test("writes, replacements and deletes reach the cache and survive reopening", arguments: FlyerBackend.allCases)
    func crud(_ backend: FlyerBackend) async throws {
        try await backend.withCatalog { catalog in
            let center = try Coordinate(latitude: 48.8566, longitude: 2.3522)
            try await catalog.write(
                [try point("a", "Alpha", 48.857, 2.3522), try point("b", "Bravo", 48.87, 2.3522)], mode: .create)
            #expect(
                try await catalog.nearby(NearbyQuery(center: center, limit: 5)).matches.map(\.flyer.id) == ["a", "b"])
            try await catalog.write([try point("a", "Alpha moved", 48.9, 2.3522)], mode: .upsert)
            #expect(
                try await catalog.nearby(NearbyQuery(center: center, limit: 5)).matches.map(\.flyer.id) == ["b", "a"])
            await #expect(throws: FlyerStoreError.duplicateID("b")) {
                try await catalog.write([try point("b", "Again", 0, 0)], mode: .create)
            }
            #expect(try await catalog.delete(id: "b"))
            #expect(try await !catalog.delete(id: "b"))
            let reopened = FlyerCatalog(store: catalog.store)
            try await reopened.load()
            #expect(reopened.count == 1)
            #expect(try await reopened.flyer(id: "a")?.title == "Alpha moved")
        }
    }

    @Test(
        "expired flyers are left out unless asked for; categories ignore case; pages continue with the cursor",
        arguments: FlyerBackend.allCases)
    func filtersAndPages(_ backend: FlyerBackend) async throws {
        try await backend.withCatalog { catalog in
            let now = Date(timeIntervalSince1970: 1_750_000_000)
            var flyers = try (0..<25).map {
                try point("p\($0)", "Flyer \($0)", 10 + Double($0) * 0.001, 20, category: $0 % 2 == 0 ? "Food" : nil)
            }
            flyers.append(try point("old", "Old", 10, 20, until: now.addingTimeInterval(-1)))
            try await catalog.write(flyers, mode: .create)
            let search = NearbySearch(presenter: FlyerPresenter(units: .imperial, mapStyle: .apple))
            let center = try Coordinate(latitude: 10, longitude: 20)
            let first = try await search.respond(
                NearbyRequest(center: center, limit: 10, at: now), position: nil, catalog: catalog)
            #expect(first.items.first?.id == "p0" && first.items.first?.distanceText == "0 ft")
            #expect(first.items[1].bearing.map { abs($0) < 1e-6 } == true)
            #expect(first.items[1].mapUrl?.hasPrefix("https://maps.apple.com/") == true)
            var seen = first.items.map(\.id)
            var cursor = first.nextCursor
            while let token = cursor {
                let page = try await search.respond(
                    NearbyRequest(center: center, limit: 10, cursor: token, at: now), position: nil, catalog: catalog)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            }
            #expect(seen == (0..<25).map { "p\($0)" })
            let all = try await search.respond(
                NearbyRequest(center: center, limit: 50, at: now, includeInactive: true), position: nil,
                catalog: catalog)
            #expect(all.items.map(\.id).contains("old"))
            let food = try await search.respond(
                NearbyRequest(center: center, limit: 50, category: "FOOD", at: now), position: nil, catalog: catalog)
            #expect(food.items.count == 13)
            await #expect(throws: NearbyRequestError.self) {
                try await search.respond(
                    NearbyRequest(center: center, cursor: "garbage!"), position: nil, catalog: catalog)
            }
        }
    }

    @Test(
        "without a centre or a fix: sorted by title, no distances, location_available false",
        arguments: FlyerBackend.allCases)
    func noLocation(_ backend: FlyerBackend) async throws {
        try await backend.withCatalog { catalog in
            try await catalog.write(
                [
                    try point("1", "Zebra crossing", 1, 1), try point("2", "Apple sale", 2, 2),
                    try point("3", "Apple sale", 3, 3)
                ], mode: .create)
            let search = NearbySearch(presenter: FlyerPresenter(units: .metric, mapStyle: .apple))
            let first = try await search.respond(NearbyRequest(limit: 2), position: nil, catalog: catalog)
            #expect(!first.locationAvailable)
            #expect(first.items.map(\.id) == ["2", "3"])
            #expect(first.items.allSatisfy { $0.distanceM == nil && $0.distanceText == nil && $0.mapUrl != nil })
            let second = try await search.respond(
                NearbyRequest(limit: 2, cursor: first.nextCursor), position: nil, catalog: catalog)
            #expect(second.items.map(\.id) == ["1"] && second.nextCursor == nil)
            let withFix = try await search.respond(
                NearbyRequest(limit: 1), position: try Coordinate(latitude: 3, longitude: 3), catalog: catalog)
            #expect(withFix.locationAvailable && withFix.items.map(\.id) == ["3"])
        }
    }
}
