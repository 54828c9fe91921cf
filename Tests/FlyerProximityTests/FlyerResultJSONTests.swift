import Foundation
import MapLinkCore
import MeridianCore
import Testing
import Workloads

@testable import FlyerProximity

@Suite("Nearby and list answers written directly are MeridianJSON's text, byte for byte")
struct FlyerResultJSONTests {
    func expectSame<T: DirectJSONEncodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = String(decoding: try MeridianJSON.makeEncoder().encode(value), as: UTF8.self)
        let written = try #require(value.directJSON(), sourceLocation: sourceLocation)
        #expect(String(decoding: written, as: UTF8.self) == expected, sourceLocation: sourceLocation)
    }

    /// Texts with every escape JSON has, slashes, DEL, line separators and characters beyond the BMP, escapes
    /// at every place of the eight-byte words the writer copies whole, and plain texts of every length with and
    /// without an escape at their end (the last bytes go as one word overlapping the one before).
    static let awkwardTexts =
        [
            "", "plain", "quote\" back\\slash /slash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}",
            "café Ω \u{2028}\u{2029} 🥐 e\u{301}", "https://example.com/a?b=c&d=%20#e",
            String(repeating: "\\\"", count: 40)
        ]
        + (0..<17).map {
            String(repeating: "x", count: $0) + "\u{1F}é\"" + String(repeating: "y", count: 16 - $0) + "\\\n"
        }
        + (1..<20).flatMap { [String(repeating: "w", count: $0), String(repeating: "z", count: $0) + "\""] }

    /// Numbers JSONEncoder writes in every shape: integral, short decimals, shortest digits, exponents, signed zero.
    static let awkwardNumbers: [Double] = [
        0, -0.0, 1, -1, 5000, 0.1, 0.30000000000000004, 1e-05, 1e-7, 0.00012345, 123456.789, 999_999.999_999_999,
        1e15, 1e16, 9_007_199_254_740_993, 1e22, 1.7976931348623157e308, 5e-324, -33.679553333, 179.99999999999997,
        2.2250738585072014e-308, 100.0000000001
    ]

    static func result(_ random: inout SeededRandom) -> FlyerResult {
        func text() -> String { awkwardTexts[Int(random.next() % UInt64(awkwardTexts.count))] }
        func number() -> Double {
            random.unit() < 0.5
                ? awkwardNumbers[Int(random.next() % UInt64(awkwardNumbers.count))]
                : Double(bitPattern: random.next() >> 2) * (random.unit() < 0.5 ? -1 : 1)
        }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { random.unit() < 0.5 ? value() : nil }
        func date() -> Date { Date(timeIntervalSince1970: (random.unit() - 0.3) * 4e9 + random.unit()) }
        return FlyerResult(
            id: text() + "id", title: text(), description: maybe(text()), address: maybe(text()),
            category: maybe(text()), url: maybe(text()), radiusM: number(), validFrom: maybe(date()),
            validUntil: maybe(date()), geometryType: ["Point", "Polygon", "MultiPolygon"][Int(random.next() % 3)],
            lat: number(), lon: number(), distanceM: maybe(number()), distanceText: maybe(text()),
            bearing: maybe(number()), mapUrl: maybe(text()))
    }

    @Test("generated answers with every optional present or absent, awkward texts and numbers")
    func generated() throws {
        var random = SeededRandom(seed: 7)
        for round in 0..<400 {
            let items = (0..<Int(random.next() % 5)).map { _ in Self.result(&random) }
            let cursor = random.unit() < 0.5 ? Self.awkwardTexts[round % Self.awkwardTexts.count] : nil
            let stale: Bool? = random.unit() < 0.3 ? random.unit() < 0.5 : nil
            let center =
                random.unit() < 0.7
                ? CenterPoint(lat: Self.awkwardNumbers[round % Self.awkwardNumbers.count], lon: -12.5) : nil
            try expectSame(
                NearbyResponse(
                    locationAvailable: center != nil, center: center,
                    radiusM: random.unit() < 0.5 ? Self.awkwardNumbers[(round * 7) % Self.awkwardNumbers.count] : nil,
                    items: items, nextCursor: cursor, stale: stale))
            try expectSame(FlyerList(items: items, nextCursor: cursor, stale: stale))
        }
    }

    @Test("real searches over generated flyers (points and areas), metric and imperial, every map style")
    func realSearches() async throws {
        var workload = FlyerWorkload(.init(seed: 3, areaShare: 0.3, inactiveShare: 0.2))
        let index = FlyerIndex()
        index.upsert((0..<3000).map { workload.flyer(number: $0) })
        var queries = FlyerWorkload(.init(seed: 4))
        for (number, style) in MapStyle.allCases.enumerated() {
            let search = NearbySearch(
                presenter: FlyerPresenter(units: number % 2 == 0 ? .metric : .imperial, mapStyle: style))
            for _ in 0..<20 {
                let request = NearbyRequest(
                    center: queries.queryPoint(), radius: 20_000, limit: 10, at: workload.settings.referenceTime)
                let response = try await search.respond(request, position: nil, searcher: index)
                try expectSame(response)
            }
            try expectSame(try await search.respond(NearbyRequest(limit: 5), position: nil, searcher: index))
        }
    }

    @Test("a number the encoder refuses leaves the answer to the encoder")
    func nonFinite() {
        var random = SeededRandom(seed: 1)
        var item = Self.result(&random)
        item.distanceM = .nan
        #expect(NearbyResponse(locationAvailable: true, items: [item]).directJSON() == nil)
        #expect(NearbyResponse(locationAvailable: true, radiusM: .infinity, items: []).directJSON() == nil)
        #expect(FlyerList(items: [item]).directJSON() == nil)
    }
}
