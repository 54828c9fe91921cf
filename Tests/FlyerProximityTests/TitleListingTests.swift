import Foundation
import MeridianCore
import Testing

@testable import FlyerProximity

/// A listing without a location (title, then id) answered from the packed cache, as while PostGIS is away, equals a
/// brute-force sort of the same flyers: flyers written on top and deleted ones included, with categories, validity,
/// text and pages.
@Suite("Listings by title from the packed cache")
struct TitleListingTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let titles = ["Café Lumière", "Bakery", "Books", "Café", "Atelier", "Zebra crossing", "Bakery"]
    static let categories: [String?] = [nil, "food", "Food", "books", "music"]

    /// Flyer `number`: titles repeat (so ids break ties), some expired, some not yet valid.
    static func flyer(_ number: Int, generation: Int = 0) -> Flyer {
        let title = titles[(number * 7 + generation) % titles.count]
        let validity = number % 5
        return Flyer(
            id: String(format: "f%04d", number), title: title,
            description: number % 3 == 0 ? "fresh bread \(generation)" : nil, category: categories[number % 5],
            validFrom: validity == 1 ? now.addingTimeInterval(3600) : nil,
            validUntil: validity == 2 ? now.addingTimeInterval(-3600) : nil,
            geometry: .point(Coordinate.clamped(latitude: 48 + Double(number) / 1000, longitude: 2) ?? .zero))
    }

    @Test("every filter and page equals the brute-force sort, with flyers written and deleted since the packed index")
    func agreesWithBruteForce() throws {
        var builder = PackedIndexBuilder(cellSize: 1000)
        for number in 0..<300 { builder.add(Self.flyer(number)) }
        let cache = PackedCache(cellSize: 1000)
        cache.replaceBase(with: builder.build(), change: 1)
        // Written since: new flyers, packed ones replaced (a new title), packed ones deleted.
        let written = (280..<340).map { Self.flyer($0, generation: 1) }
        cache.upsert(written)
        for number in stride(from: 0, to: 300, by: 17) { cache.remove(id: String(format: "f%04d", number)) }
        var all: [String: Flyer] = [:]
        for number in 0..<300 { all[String(format: "f%04d", number)] = Self.flyer(number) }
        for flyer in written { all[flyer.id] = flyer }
        for number in stride(from: 0, to: 300, by: 17) { all[String(format: "f%04d", number)] = nil }

        for category in [nil, "FOOD", "books", "nothing"] {
            for includeInactive in [false, true] {
                for text in [nil, "caf", "bread"] {
                    let query = try text.map(TextQuery.init)
                    let expected = all.values.filter { flyer in
                        if let category, flyer.category?.lowercased() != category.lowercased() { return false }
                        if !includeInactive, !flyer.isActive(at: Self.now) { return false }
                        return query?.matches(flyer) ?? true
                    }.sorted { TitlePosition(title: $0.title, id: $0.id).precedes($1.title, $1.id) }.map(\.id)
                    var listed: [String] = []
                    var after: TitlePosition?
                    while true {
                        let page = cache.byTitle(
                            limit: 25, category: category, at: Self.now, includeInactive: includeInactive,
                            after: after, text: query)
                        listed += page.flyers.map(\.id)
                        guard page.hasMore, let last = page.flyers.last else { break }
                        after = TitlePosition(title: last.title, id: last.id)
                    }
                    #expect(
                        listed == expected,
                        "category \(category ?? "any"), inactive \(includeInactive), q \(text ?? "-")")
                }
            }
        }
    }
}
