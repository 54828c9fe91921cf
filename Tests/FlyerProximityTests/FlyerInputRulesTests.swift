import Foundation
import MapLinkCore
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

/// A GeoJSON Feature at 48.85,2.35 with `properties` (a JSON object's members).
private func pointFeature(_ properties: String) -> Data {
    Data(
        #"{"type":"Feature","id":"f","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{\#(properties)}}"#
            .utf8)
}

private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
private let newYork = TimeZone(identifier: "America/New_York") ?? .gmt

@Suite("bare validity dates are days in the configured time zone")
struct FlyerValidityZoneTests {
    @Test("valid_from starts at the beginning of its day and valid_until lasts to its end, in the zone")
    func wholeDays() throws {
        let flyer = try #require(
            try GeoJSONFlyers.read(
                pointFeature(#""title":"x","valid_from":"2030-01-01","valid_until":"2030-12-31""#),
                timeZone: berlin
            ).first)
        #expect(flyer.validFrom == ISO8601.date(from: "2029-12-31T23:00:00Z"))
        #expect(flyer.validUntil.map(ISO8601.string) == "2030-12-31T22:59:59.999Z")
        #expect(flyer.isActive(at: try #require(ISO8601.date(from: "2030-12-31T22:59:59Z"))))
        #expect(!flyer.isActive(at: try #require(ISO8601.date(from: "2030-12-31T23:00:00Z"))))
        #expect(!flyer.isActive(at: try #require(ISO8601.date(from: "2029-12-31T22:59:59Z"))))
        // West of UTC the 31st ends five hours after UTC's midnight (it used to end at the start of the 31st).
        let west = try #require(
            try CSVFlyers.read(Data("title,lat,lon,valid_until\nx,40.7,-74,2030-12-31\n".utf8), timeZone: newYork).first
        )
        #expect(west.isActive(at: try #require(ISO8601.date(from: "2031-01-01T04:59:00Z"))))
        #expect(!west.isActive(at: try #require(ISO8601.date(from: "2031-01-01T05:00:00Z"))))
        // One day: from and until the same date is valid all of that day.
        let day = try #require(
            try GeoJSONFlyers.read(
                pointFeature(#""title":"x","valid_from":"2030-06-01","valid_until":"2030-06-01""#),
                timeZone: berlin
            ).first)
        #expect(day.isActive(at: try #require(ISO8601.date(from: "2030-06-01T12:00:00Z"))))
    }

    @Test("times with a zone are taken as given, whatever the configured zone")
    func timesWithZones() throws {
        let flyer = try #require(
            try GeoJSONFlyers.read(
                pointFeature(#""title":"x","valid_until":"2030-12-31T18:00:00+01:00""#),
                timeZone: newYork
            ).first)
        #expect(flyer.validUntil == ISO8601.date(from: "2030-12-31T17:00:00Z"))
    }

    @Test("the end of a day survives export and import unchanged")
    func roundTrip() throws {
        let flyers = try GeoJSONFlyers.read(pointFeature(#""title":"x","valid_until":"2030-12-31""#), timeZone: berlin)
        var first = "", second = ""
        GeoJSONFlyers.write(flyers, to: { first += $0 })
        GeoJSONFlyers.write(try GeoJSONFlyers.read(Data(first.utf8), timeZone: newYork), to: { second += $0 })
        #expect(first == second)
    }
}

@Suite("flyer texts have documented limits")
struct FlyerTextLimitTests {
    @Test("a title over 200 characters, or one character carrying 2 kB, is refused naming the line and the field")
    func titles() throws {
        let ok = String(repeating: "é", count: 200)
        #expect(try CSVFlyers.read(Data("title,lat,lon\n\(ok),1,2\n".utf8)).first?.title == ok)
        for title in [String(repeating: "a", count: 201), "e" + String(repeating: "\u{0301}", count: 1_000)] {
            #expect(throws: FlyerInputError.self) {
                try CSVFlyers.read(Data("title,lat,lon\nfine,1,2\n\(title),1,2\n".utf8))
            }
            do {
                _ = try CSVFlyers.read(Data("title,lat,lon\nfine,1,2\n\(title),1,2\n".utf8))
            } catch {
                #expect(error.location == "line 3" && error.field == "title")
                #expect(error.message.contains("the limit is 200 characters (800 bytes of UTF-8); shorten it"))
            }
        }
    }

    @Test("a description over 10,000 bytes, and an over-long address, category or URL, is refused")
    func otherFields() throws {
        let tenKB = String(repeating: "d", count: 10_000)
        #expect(
            try GeoJSONFlyers.read(pointFeature(#""title":"x","description":"\#(tenKB)""#)).first?.description == tenKB)
        let cases = [
            ("description", tenKB + "d"), ("address", String(repeating: "a", count: 501)),
            ("category", String(repeating: "c", count: 101)),
            ("url", "https://example.org/" + String(repeating: "u", count: 1_981))
        ]
        for (field, value) in cases {
            do {
                _ = try GeoJSONFlyers.read(pointFeature(#""title":"x","\#(field)":"\#(value)""#))
                Issue.record("\(field) of \(value.utf8.count) bytes was accepted")
            } catch {
                #expect(error.field == "properties.\(field)", "\(error)")
            }
        }
    }

    @Test(
        "POST of a flyer with a 1 MB title is a 400 naming the field; nearby answers stay small",
        arguments: [FlyerBackend.spatialite])
    func overHTTP(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            let huge = String(repeating: "t", count: 1 << 20)
            let refused = try await server.send(
                "POST", "/v1/flyers", String(decoding: pointFeature(#""title":"\#(huge)""#), as: UTF8.self))
            #expect(refused.status == 400)
            #expect(try refused.error().code == "invalid_body")
            #expect(
                try refused.error().message.hasPrefix(
                    "feature: properties.title: is 1048576 bytes of UTF-8 long; the limit is 200 characters"))
            #expect(refused.body.count < 1_000)
            let nearby = try await server.send("GET", "/v1/flyers/nearby?lat=48.85&lon=2.35")
            #expect(nearby.status == 200 && nearby.body.count < 1_000)
        }
    }
}

@Suite("CSV columns named as other tools name them")
struct CSVAliasTests {
    @Test("name, latitude and lng (in any case) read as title, lat and lon; errors name the column as the file does")
    func aliases() throws {
        let flyers = try CSVFlyers.read(Data("ID,Name,Latitude,lng,Until\ncat,Lost cat,48.85,2.35,2030-01-01\n".utf8))
        #expect(flyers.map(\.id) == ["cat"] && flyers.first?.title == "Lost cat" && flyers.first?.validUntil != nil)
        #expect(flyers.first?.geometry == .point(try Coordinate(latitude: 48.85, longitude: 2.35)))
        do {
            _ = try CSVFlyers.read(Data("name,latitude,lng\nx,120,2\n".utf8))
            Issue.record("latitude 120 was accepted")
        } catch {
            #expect(error.location == "line 2" && error.field == "latitude")
        }
        do {
            _ = try CSVFlyers.read(Data("title,lat,latitude,lon\nx,1,1,2\n".utf8))
            Issue.record("lat given twice was accepted")
        } catch {
            #expect(error.message == "column 'latitude' appears twice (as 'lat'); keep one")
        }
        do {
            _ = try CSVFlyers.read(Data("titel,lat,lon\nx,1,2\n".utf8))
        } catch {
            #expect(error.message.hasPrefix("unknown column 'titel'; did you mean 'title'?"))
        }
    }
}

@Suite("a map link to an area flyer points inside the area")
struct AreaMapPointTests {
    static func square(_ latitude: Double, _ longitude: Double, _ size: Double) -> [[Coordinate]] {
        let corners = [(0.0, 0.0), (0, size), (size, size), (size, 0), (0, 0)]
        return [corners.compactMap { Coordinate.clamped(latitude: latitude + $0.0, longitude: longitude + $0.1) }]
    }

    static func place(_ geometry: FlyerGeometry) throws -> (Coordinate, AreaShape) {
        let flyer = Flyer(id: "area", title: "Area", geometry: geometry)
        let place = try #require(FlyerPlace(flyer, from: nil))
        return (place.coordinate, try #require(AreaShape(geometry.polygons)))
    }

    @Test("two polygons far apart: a point inside the larger, not the middle between them")
    func twoPolygons() throws {
        let (point, area) = try Self.place(
            .multiPolygon([Self.square(48.80, 2.20, 0.02), Self.square(48.80, 2.50, 0.04)]))
        #expect(area.contains(point), "\(point)")
        #expect(point.longitude > 2.5 && point.longitude < 2.54)
    }

    @Test("a U-shaped polygon whose vertices' mean is outside it", arguments: [0.0, 89.0, -60.0])
    func concave(latitude: Double) throws {
        // A U opening north: the mean of its vertices lies in the gap.
        let u = [(0.0, 0.0), (0, 0.3), (0.3, 0.3), (0.3, 0.2), (0.05, 0.2), (0.05, 0.1), (0.3, 0.1), (0.3, 0), (0, 0)]
        let ring = u.compactMap { Coordinate.clamped(latitude: latitude + $0.0 / 10, longitude: 179.9 + $0.1) }
        let (point, area) = try Self.place(.polygon([ring]))
        #expect(area.contains(point), "\(point)")
        let mean = try #require(
            EarthPoint(
                x: ring.dropLast().map { EarthPoint($0).x }.reduce(0, +),
                y: ring.dropLast().map { EarthPoint($0).y }.reduce(0, +),
                z: ring.dropLast().map { EarthPoint($0).z }.reduce(0, +)
            ).surfaceCoordinate)
        #expect(!area.contains(mean))
    }

    @Test("the catalogue's place for map links (GET /v1/maplinks/flyer/{id} without an origin) is inside")
    func catalogPlace() async throws {
        try await FlyerServer.with(.spatialite) { server in
            let plugin = try #require(server.plugin)
            let geometry = FlyerGeometry.multiPolygon([Self.square(48.80, 2.20, 0.02), Self.square(48.80, 2.50, 0.04)])
            try await plugin.catalog.write([Flyer(id: "two", title: "Two parks", geometry: geometry)], mode: .create)
            let lookup = CatalogPlaceLookup(catalog: plugin.catalog)
            let area = try #require(AreaShape(geometry.polygons))
            let place = try #require(try await lookup.place(forFlyer: "two", from: nil))
            #expect(area.contains(place.coordinate))
            #expect(place.coordinate.longitude > 2.5)
        }
    }
}
