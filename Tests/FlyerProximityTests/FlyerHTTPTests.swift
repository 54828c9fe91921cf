import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("/v1/flyers over a real HTTP socket")
struct FlyerHTTPTests {
    static let origin = Coordinate.clamped(latitude: 52.52, longitude: 13.405) ?? .zero

    /// A point flyer `metres` north of the origin, as a GeoJSON Feature.
    static func feature(_ id: String, _ title: String, north metres: Double, category: String = "food") throws -> String
    {
        let point = try Geodesic.wgs84.direct(from: origin, bearing: 0, distance: metres).destination
        return """
            {"type": "Feature", "id": "\(id)", "geometry": {"type": "Point", "coordinates": [\(point.longitude), \(point.latitude)]},
             "properties": {"title": "\(title)", "category": "\(category)", "radius_m": 100}}
            """
    }

    @Test(
        "POST, GET, PUT and DELETE by id; invalid bodies name the feature; unknown ids are 404",
        arguments: FlyerBackend.allCases)
    func crud(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            let one = try await server.send("POST", "/v1/flyers", try Self.feature("bakery", "Fresh bread", north: 100))
            #expect(one.status == 201)
            #expect(try one.json()["ids"] as? [String] == ["bakery"])
            let collection =
                "{\"type\": \"FeatureCollection\", \"features\": [\(try Self.feature("cafe", "Coffee", north: 300)), \(try Self.feature("shop", "Shoes", north: 700))]}"
            let many = try await server.send("POST", "/v1/flyers", collection)
            #expect(many.status == 201)
            #expect(try many.json()["ids"] as? [String] == ["cafe", "shop"])
            #expect(
                try await server.send("POST", "/v1/flyers", try Self.feature("cafe", "Again", north: 1)).status == 409)

            let invalid =
                "{\"type\": \"FeatureCollection\", \"features\": [\(try Self.feature("ok", "Fine", north: 5)), {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [13.4, 52.5]}, \"properties\": {}}]}"
            let rejected = try await server.send("POST", "/v1/flyers", invalid)
            #expect(rejected.status == 400)
            #expect(try rejected.error().code == "invalid_body")
            #expect(try rejected.error().message.contains("features[1]"))
            #expect(try await server.send("GET", "/v1/flyers/ok").status == 404)  // all or nothing

            let fetched = try await server.send("GET", "/v1/flyers/cafe")
            #expect(fetched.status == 200)
            #expect((try fetched.json()["properties"] as? [String: Any])?["title"] as? String == "Coffee")
            let replaced = try await server.send("PUT", "/v1/flyers/cafe", try Self.feature("cafe", "Tea", north: 300))
            #expect(replaced.status == 200)
            let reread = try await server.send("GET", "/v1/flyers/cafe")
            #expect((try reread.json()["properties"] as? [String: Any])?["title"] as? String == "Tea")
            #expect(
                try await server.send("PUT", "/v1/flyers/new", try Self.feature("new", "New", north: 10)).status == 201)

            #expect(try await server.send("DELETE", "/v1/flyers/shop").status == 204)
            #expect(try await server.send("GET", "/v1/flyers/shop").status == 404)
            #expect(try await server.send("DELETE", "/v1/flyers/shop").status == 404)
            #expect(try await server.send("GET", "/v1/flyers/nothing").status == 404)
            let patched = try await server.send("PATCH", "/v1/flyers/cafe", "{}")
            #expect(patched.status == 405 && patched.headers["allow"] == "DELETE, GET, HEAD, OPTIONS, PUT")
        }
    }

    @Test(
        "nearby: sorted by distance, distance text in the configured units, map links, cursor pages, 400 for bad parameters",
        arguments: FlyerBackend.allCases)
    func nearby(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend, units: .imperial) { server in
            let features = try [
                ("far", "Far", 1500.0), ("near", "Near", 50), ("middle", "Middle", 400), ("mid2", "Middle too", 800)
            ]
            .map { try Self.feature($0.0, $0.1, north: $0.2) }
            let created = try await server.send(
                "POST", "/v1/flyers",
                "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ","))]}")
            #expect(created.status == 201)
            let base = "/v1/flyers/nearby?lat=\(Self.origin.latitude)&lon=\(Self.origin.longitude)&radius_m=1000"
            let all = try await server.send("GET", base)
            #expect(all.status == 200)
            #expect(try all.json()["location_available"] as? Bool == true)
            let items = try all.items()
            #expect(items.map { $0["id"] as? String } == ["near", "middle", "mid2"])
            for item in items {
                let distance = try #require(item["distance_m"] as? Double)
                #expect(item["distance_text"] as? String == DistanceFormat.string(metres: distance, units: .imperial))
                #expect((item["map_url"] as? String)?.hasPrefix("https://") == true)
            }
            #expect(items.first?["distance_text"] as? String == "164 ft")

            var paged: [String] = []
            var cursor: String?
            repeat {
                let suffix =
                    cursor.map { "&cursor=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
                    ?? ""
                let page = try await server.send("GET", base + "&limit=2" + suffix)
                #expect(page.status == 200)
                paged += try page.items().compactMap { $0["id"] as? String }
                cursor = try page.json()["next_cursor"] as? String
            } while cursor != nil && paged.count < 10
            #expect(paged == ["near", "middle", "mid2"])

            for (query, parameter) in [
                ("lat=120&lon=13.4", "lat"), ("lat=abc&lon=13.4", "lat"), ("lat=52.5", "lon"),
                ("lat=52.5&lon=13.4&radius_m=-5", "radius_m"), ("lat=52.5&lon=13.4&radius_m=x", "radius_m")
            ] {
                let bad = try await server.send("GET", "/v1/flyers/nearby?" + query)
                #expect(bad.status == 400, "\(query)")
                let error = try bad.error()
                #expect(error.code == "invalid_parameter")
                #expect(error.message.contains(parameter), "\(query): \(error.message)")
            }
        }
    }

    @Test(
        "without a fix: by title with location_available false; fixes drive the search centre and flyer.enter/exit",
        arguments: FlyerBackend.allCases)
    func nearMe(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend, options: "move_threshold: 5") { server in
            let features = try [("b", "Bakery", 0.0), ("a", "Zoo", 3000), ("c", "Aquarium", 6000)].map {
                try Self.feature($0.0, $0.1, north: $0.2)
            }
            #expect(
                try await server.send(
                    "POST", "/v1/flyers",
                    "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ","))]}"
                ).status == 201)

            let blind = try await server.send("GET", "/v1/flyers/nearby")
            #expect(blind.status == 200)
            #expect(try blind.json()["location_available"] as? Bool == false)
            let titles = try blind.items()
            #expect(titles.map { $0["title"] as? String } == ["Aquarium", "Bakery", "Zoo"])
            #expect(titles.allSatisfy { $0["distance_m"] == nil })

            let events = server.host.events.subscribe()
            let farAway = try Geodesic.wgs84.direct(from: Self.origin, bearing: 180, distance: 500).destination
            server.move(to: farAway)
            server.move(to: try Geodesic.wgs84.direct(from: Self.origin, bearing: 180, distance: 30).destination)
            server.move(to: farAway)
            let received = try await EventCollection.first(2, of: events) { $0.name.hasPrefix("flyer.") }.map { event in
                let payload = try MeridianJSON.makeDecoder().decode(FlyerEvent.self, from: Data(event.json.utf8))
                return "\(event.name) \(payload.flyerId)"
            }
            #expect(received == ["flyer.enter b", "flyer.exit b"])

            let around = try await server.send("GET", "/v1/flyers/nearby?limit=2")
            #expect(try around.json()["location_available"] as? Bool == true)
            #expect(try around.items().map { $0["id"] as? String } == ["b", "a"])
        }
    }
}
