import Foundation
import MapLinks
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

/// The flyers page and its upload over a real socket, on a real SpatiaLite file.
@Suite("Flyer pages over HTTP")
struct FlyerPagesTests {
    static let flyers = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "near", "geometry": {"type": "Point", "coordinates": [2.3530, 48.8570]},
           "properties": {"title": "Bakery", "category": "food", "url": "javascript:alert(1)"}},
          {"type": "Feature", "id": "xss", "geometry": {"type": "Point", "coordinates": [2.3600, 48.8600]},
           "properties": {"title": "<script>alert(1)</script>", "category": "<i>odd</i>", "address": "\\" onclick=\\"x",
                          "description": "<img src=x onerror=alert(1)>"}},
          {"type": "Feature", "id": "far", "geometry": {"type": "Point", "coordinates": [2.4000, 48.9000]},
           "properties": {"title": "Far away", "category": "food", "url": "https://example.org/far"}}
        ]}
        """

    static func titles(_ html: String) -> [String] {
        html.components(separatedBy: "<div class=\"title\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    static func upload(_ server: FlyerServer, name: String, _ content: String) async throws -> HTTPTestClient.Response {
        let body =
            "--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: text/plain\r\n\r\n"
            + content + "\r\n--B0UND\r\nContent-Disposition: form-data; name=\"format\"\r\n\r\n\r\n--B0UND--\r\n"
        return try await server.client.request(
            "POST", "/flyers/import", body: Data(body.utf8), contentType: "multipart/form-data; boundary=B0UND")
    }

    @Test("flyers near a typed position, nearest first, escaped, with map links and a map")
    func nearTypedPosition() async throws {
        try await FlyerServer.with { server in
            #expect(try await server.send("POST", "/v1/flyers", Self.flyers).status == 201)
            let page = try await server.send("GET", "/flyers?lat=48.8566&lon=2.3522")
            #expect(page.status == 200)
            let html = page.text
            #expect(Self.titles(html) == ["Bakery", "&lt;script&gt;alert(1)&lt;/script&gt;", "Far away"])
            #expect(!html.contains("<script>alert") && !html.contains("<img src=x") && !html.contains("<i>odd"))
            #expect(!html.contains("href=\"javascript:"))
            #expect(html.contains("href=\"https://example.org/far\""))
            #expect(html.contains("&quot; onclick=&quot;x"))
            #expect(
                html.contains("href=\"https://maps.apple.com/directions?destination=48.857,2.353&amp;mode=walking\""))
            #expect(html.contains("data-map=\"flyer-data\""))
            let json = try #require(
                html.components(separatedBy: "id=\"flyer-data\">").dropFirst().first?.components(
                    separatedBy: "</script>"
                ).first)
            #expect(!json.contains("<"))
            let map = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let titles = (map["markers"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles.contains("<script>alert(1)</script>") && titles.contains("Search centre"))

            let food = try await server.send("GET", "/flyers?lat=48.8566&lon=2.3522&category=FOOD")
            #expect(Self.titles(food.text) == ["Bakery", "Far away"])
            let half = try await server.send("GET", "/flyers?lat=48.8566")
            #expect(half.status == 200 && half.text.contains("Give both latitude and longitude"))
            let offEarth = try await server.send("GET", "/flyers?lat=91&lon=0")
            #expect(offEarth.text.contains("not on Earth"))
        }
    }

    @Test("without a typed position the live fix is the centre; without one, flyers come by title")
    func livePosition() async throws {
        try await FlyerServer.with { server in
            _ = try await server.send("POST", "/v1/flyers", Self.flyers)
            #expect(try await server.send("GET", "/flyers").text.contains("waiting for GPS"))
            server.move(to: try Coordinate(latitude: 48.9, longitude: 2.4))
            let page = try await server.send("GET", "/flyers")
            #expect(Self.titles(page.text).first == "Far away")
            #expect(page.text.contains("(your live position)"))
        }
    }

    @Test("the map links follow the map-links plugin's style when it is configured")
    func mapLinkStyle() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        var registry = PluginRegistry()
        registry.register(FlyerPlugin.registration)
        registry.register(MapLinksPlugin.registration)
        let server = try await TestServer.start(
            yaml: "consumers:\n  - type: flyers\n  - {type: map-links, style: google}\n",
            registry: registry, store: temporary.store)
        try await server.run { server in
            _ = try await server.client.request("POST", "/v1/flyers", body: Data(Self.flyers.utf8))
            let page = try await server.client.request("GET", "/flyers?lat=48.8566&lon=2.3522")
            #expect(
                page.text.contains(
                    "href=\"https://www.google.com/maps/dir/?api=1&amp;destination=48.857,2.353&amp;travelmode=walking\""
                ))
        }
    }

    @Test("an upload with errors lists every bad line and imports nothing; a good one imports and says how many")
    func upload() async throws {
        try await FlyerServer.with { server in
            let bad = "id,title,lat,lon\nok,Fine,48.85,2.35\nb1,Wrong,120,2.35\nb2,,48.85,2.35\nb3,<b>x</b>,abc,2.35\n"
            let refused = try await Self.upload(server, name: "shops.csv", bad)
            #expect(refused.status == 400)
            let list =
                refused.text.components(separatedBy: "<ul class=\"errors\">").dropFirst().first?.components(
                    separatedBy: "</ul>"
                ).first ?? ""
            let errors = list.components(separatedBy: "<li>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            #expect(errors.count == 3)
            #expect(errors.first?.hasPrefix("line 3: lat: latitude 120.0 is outside") == true)
            #expect(errors.last?.hasPrefix("line 5: lat: &#39;abc&#39; is not a number") == true)
            #expect(refused.text.contains("shops.csv: nothing was imported"))
            #expect(try await server.send("GET", "/v1/flyers").items().isEmpty)

            let geojson = try await Self.upload(server, name: "a.geojson", Self.flyers)
            #expect(geojson.status == 303 && geojson.headers["location"] == "/flyers?imported=3")
            #expect(try await server.send("GET", "/flyers?imported=3").text.contains("3 flyers were imported."))
            #expect(try await server.send("GET", "/v1/flyers").items().count == 3)
            let empty = try await Self.upload(server, name: "none.csv", "")
            #expect(empty.status == 400 && empty.text.contains("no file was chosen"))
        }
    }

    @Test("reading a whole file collects every bad row or feature; reading for import still stops at the first")
    func readAll() throws {
        let csv = Data("id,title,lat,lon\na,A,1,1\nb,,1,1\nc,C,x,1\na,Again,1,1\n".utf8)
        let all = CSVFlyers.readAll(csv, errorLimit: 50)
        #expect(all.flyers.map(\.id) == ["a"])
        #expect(all.errors.map(\.location) == ["line 3", "line 4", "line 5"])
        #expect(throws: FlyerInputError.self) { try CSVFlyers.read(csv) }
        #expect(CSVFlyers.readAll(Data("nope\n".utf8), errorLimit: 50).errors.count == 1)
        let geojson = Data(
            """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 1]}, "properties": {}},
             {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 1]}, "properties": {"title": "ok"}},
             {"type": "Nope"}]}
            """.utf8)
        let features = GeoJSONFlyers.readAll(geojson, errorLimit: 50)
        #expect(features.errors.map(\.location) == ["features[0]", "features[2]"] && features.flyers.count == 1)
        #expect(GeoJSONFlyers.readAll(geojson, errorLimit: 1).errors.count == 1)
    }
}
