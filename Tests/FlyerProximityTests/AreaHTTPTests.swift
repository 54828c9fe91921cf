import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("POST /v1/flyers/search and GET /v1/flyers?bbox= over a real HTTP socket")
struct AreaHTTPTests {
    /// Flyers around Fiji's ±180°: points on both sides, one far away, and an area across the line.
    static let collection = """
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": "east", "geometry": {"type": "Point", "coordinates": [179.9, -16.5]}, "properties": {"title": "East", "category": "food"}},
         {"type": "Feature", "id": "west", "geometry": {"type": "Point", "coordinates": [-179.9, -16.5]}, "properties": {"title": "West"}},
         {"type": "Feature", "id": "far", "geometry": {"type": "Point", "coordinates": [178.0, -16.5]}, "properties": {"title": "Far"}},
         {"type": "Feature", "id": "market", "geometry": {"type": "Polygon", "coordinates": [[[179.95, -16.2], [-179.95, -16.2], [-179.95, -16.1], [179.95, -16.1], [179.95, -16.2]]]},
          "properties": {"title": "Market"}}
        ]}
        """
    static let square =
        #"{"type": "Polygon", "coordinates": [[[179.5, -17], [-179.5, -17], [-179.5, -16], [179.5, -16], [179.5, -17]]]}"#

    static func ids(_ response: HTTPTestClient.Response) throws -> [String] {
        try response.items().compactMap { $0["id"] as? String }
    }

    @Test(
        "within, intersects, near_line and bbox across ±180°; pages; errors name the field",
        arguments: FlyerBackend.allCases)
    func search(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            #expect(try await server.send("POST", "/v1/flyers", Self.collection).status == 201)
            let within = try await server.send("POST", "/v1/flyers/search", #"{"within": \#(Self.square)}"#)
            #expect(within.status == 200)
            #expect(try Self.ids(within) == ["east", "market", "west"])
            #expect(try within.items().allSatisfy { $0["distance_m"] == nil && $0["map_url"] != nil })
            let small =
                #"{"type": "Polygon", "coordinates": [[[179.8, -16.6], [-179.8, -16.6], [-179.8, -16.15], [179.8, -16.15], [179.8, -16.6]]]}"#
            let partly = try await server.send("POST", "/v1/flyers/search", #"{"within": \#(small)}"#)
            #expect(try Self.ids(partly) == ["east", "west"], "the market reaches out of it")
            let touching = try await server.send(
                "POST", "/v1/flyers/search", #"{"intersects": \#(small), "category": "FOOD"}"#)
            #expect(try Self.ids(touching) == ["east"])

            var pages: [String] = []
            var body = #"{"intersects": \#(small), "limit": 1}"#
            while true {
                let page = try await server.send("POST", "/v1/flyers/search", body)
                pages += try Self.ids(page)
                guard let next = try page.json()["next_cursor"] as? String else { break }
                body = #"{"intersects": \#(small), "limit": 1, "cursor": "\#(next)"}"#
            }
            #expect(pages == ["east", "market", "west"])

            let route =
                #"{"near_line": {"type": "LineString", "coordinates": [[179.9, -16.6], [-179.9, -16.6]]}, "buffer_m": 12000}"#
            let along = try await server.send("POST", "/v1/flyers/search", route)
            #expect(along.status == 200)
            let items = try along.items()
            #expect(Set(items.compactMap { $0["id"] as? String }) == ["east", "west"])
            for item in items {
                let distance = try #require(item["distance_m"] as? Double)
                #expect(abs(distance - 11_060) < 20, "0.1° of latitude at 16.5° S is about 11.06 km")
                #expect(item["distance_text"] as? String == "11.1 km")
            }

            let viewport = try await server.send("GET", "/v1/flyers?bbox=179.85,-16.55,-179.85,-16.45")
            #expect(viewport.status == 200)
            #expect(try Self.ids(viewport) == ["east", "west"])
            let whole = try await server.send("GET", "/v1/flyers?bbox=170,-20,-170,-10&limit=2")
            #expect(try Self.ids(whole) == ["east", "far"] && (try whole.json()["next_cursor"] as? String) != nil)

            let bowtie = #"{"within": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}}"#
            let refused = try await server.send("POST", "/v1/flyers/search", bowtie)
            let refusal = try refused.error()
            #expect(refused.status == 400 && refusal.code == "invalid_body")
            #expect(refusal.message.contains("within: the polygon crosses itself"), "\(refusal)")
            let badBox = try await server.send("GET", "/v1/flyers?bbox=0,50,1,40")
            let boxError = try badBox.error()
            #expect(badBox.status == 400 && boxError.message.contains("bbox"), "\(boxError)")
            let unknown = try await server.send("POST", "/v1/flyers/search", #"{"inside": \#(Self.square)}"#)
            let unknownError = try unknown.error()
            #expect(unknown.status == 400 && unknownError.message.contains("inside"), "\(unknownError)")
            let huge = String(repeating: " ", count: AreaRequest.maximumBodyBytes + 1)
            #expect(try await server.send("POST", "/v1/flyers/search", huge).status == 413)
        }
    }
}
