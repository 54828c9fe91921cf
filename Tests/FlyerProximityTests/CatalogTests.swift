import Foundation
import MeridianCore
import MeridianTesting
import Testing
@testable import FlyerProximity

@Suite("catalogue: store and index stay in step; near-me without a location")
struct CatalogTests {
    private func point(_ id: String, _ title: String, _ latitude: Double, _ longitude: Double, category: String? = nil,
                       until: Date? = nil) throws -> Flyer {
        Flyer(id: id, title: title, category: category, validUntil: until,
              geometry: .point(try Coordinate(latitude: latitude, longitude: longitude)))
    }

    @Test("writes, replacements and deletes reach the index and survive reopening")
    func crud() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let catalog = try FlyerCatalog(store: temporary.store)
        let center = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        try catalog.write([try point("a", "Alpha", 48.857, 2.3522), try point("b", "Bravo", 48.87, 2.3522)], mode: .create)
        #expect(catalog.index.nearby(NearbyQuery(center: center, limit: 5)).matches.map(\.flyer.id) == ["a", "b"])
        try catalog.write([try point("a", "Alpha moved", 48.9, 2.3522)], mode: .upsert)
        #expect(catalog.index.nearby(NearbyQuery(center: center, limit: 5)).matches.map(\.flyer.id) == ["b", "a"])
        #expect(throws: FlyerCatalogError.duplicateID("b")) { try catalog.write([try point("b", "Again", 0, 0)], mode: .create) }
        #expect(try catalog.delete(id: "b"))
        #expect(try !catalog.delete(id: "b"))
        let reopened = try FlyerCatalog(store: temporary.store)
        #expect(reopened.index.count == 1)
        #expect(reopened.flyer(id: "a")?.title == "Alpha moved")
    }

    @Test("expired flyers are left out unless asked for; categories ignore case; pages continue with the cursor")
    func filtersAndPages() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let catalog = try FlyerCatalog(store: temporary.store)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        var flyers = try (0..<25).map { try point("p\($0)", "Flyer \($0)", 10 + Double($0) * 0.001, 20, category: $0 % 2 == 0 ? "Food" : nil) }
        flyers.append(try point("old", "Old", 10, 20, until: now.addingTimeInterval(-1)))
        try catalog.write(flyers, mode: .create)
        let search = NearbySearch(index: catalog.index, presenter: FlyerPresenter(units: .imperial, mapStyle: .apple))
        let center = try Coordinate(latitude: 10, longitude: 20)
        let first = try search.respond(NearbyRequest(center: center, limit: 10, at: now), position: nil)
        #expect(first.items.first?.id == "p0" && first.items.first?.distanceText == "0 ft")
        #expect(first.items[1].bearing.map { abs($0) < 1e-6 } == true)
        #expect(first.items[1].mapUrl?.hasPrefix("https://maps.apple.com/") == true)
        var seen = first.items.map(\.id)
        var cursor = first.nextCursor
        while let token = cursor {
            let page = try search.respond(NearbyRequest(center: center, limit: 10, cursor: token, at: now), position: nil)
            seen += page.items.map(\.id)
            cursor = page.nextCursor
        }
        #expect(seen == (0..<25).map { "p\($0)" })
        let all = try search.respond(NearbyRequest(center: center, limit: 50, at: now, includeInactive: true), position: nil)
        #expect(all.items.map(\.id).contains("old"))
        let food = try search.respond(NearbyRequest(center: center, limit: 50, category: "FOOD", at: now), position: nil)
        #expect(food.items.count == 13)
        #expect(throws: NearbyRequestError.self) { try search.respond(NearbyRequest(center: center, cursor: "garbage!"), position: nil) }
    }

    @Test("without a centre or a fix: sorted by title, no distances, location_available false")
    func noLocation() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let catalog = try FlyerCatalog(store: temporary.store)
        try catalog.write([try point("1", "Zebra crossing", 1, 1), try point("2", "Apple sale", 2, 2), try point("3", "Apple sale", 3, 3)], mode: .create)
        let search = NearbySearch(index: catalog.index, presenter: FlyerPresenter(units: .metric, mapStyle: .apple))
        let first = try search.respond(NearbyRequest(limit: 2), position: nil)
        #expect(!first.locationAvailable)
        #expect(first.items.map(\.id) == ["2", "3"])
        #expect(first.items.allSatisfy { $0.distanceM == nil && $0.distanceText == nil && $0.mapUrl != nil })
        let second = try search.respond(NearbyRequest(limit: 2, cursor: first.nextCursor), position: nil)
        #expect(second.items.map(\.id) == ["1"] && second.nextCursor == nil)
        let withFix = try search.respond(NearbyRequest(limit: 1), position: try Coordinate(latitude: 3, longitude: 3))
        #expect(withFix.locationAvailable && withFix.items.map(\.id) == ["3"])
    }
}
