import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("q on area queries: POST /v1/flyers/search, bbox and meridian flyers within")
struct AreaTextTests {
    /// Three flyers in a Vienna square and a café outside it.
    static let collection = """
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": "central", "geometry": {"type": "Point", "coordinates": [16.366, 48.210]}, "properties": {"title": "Café Central", "category": "food"}},
         {"type": "Feature", "id": "baker", "geometry": {"type": "Point", "coordinates": [16.370, 48.208]}, "properties": {"title": "Bäckerei Müller", "description": "Brot und Kaffee"}},
         {"type": "Feature", "id": "market", "geometry": {"type": "Polygon", "coordinates": [[[16.360, 48.200], [16.364, 48.200], [16.364, 48.203], [16.360, 48.203], [16.360, 48.200]]]}, "properties": {"title": "Naschmarkt", "address": "Wienzeile"}},
         {"type": "Feature", "id": "outside", "geometry": {"type": "Point", "coordinates": [16.500, 48.300]}, "properties": {"title": "Cafeteria"}}
        ]}
        """
    static let square =
        #"{"type": "Polygon", "coordinates": [[[16.35, 48.19], [16.38, 48.19], [16.38, 48.22], [16.35, 48.22], [16.35, 48.19]]]}"#

    @Test(
        "word starts, accents and case aside, on every backend; a q without a word is a 400 naming q",
        arguments: FlyerBackend.allCases)
    func textOnAreas(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            #expect(try await server.send("POST", "/v1/flyers", Self.collection).status == 201)
            func within(_ q: String) async throws -> [String] {
                let body = #"{"within": \#(Self.square), "q": "\#(q)"}"#
                let response = try await server.send("POST", "/v1/flyers/search", body)
                #expect(response.status == 200, "\(response.text)")
                return try AreaHTTPTests.ids(response)
            }
            #expect(try await within("caf") == ["central"])
            #expect(try await within("KAFFEE") == ["baker"], "the description counts")
            #expect(try await within("muller brot") == ["baker"], "accents aside, every word")
            #expect(try await within("wienz") == ["market"], "the address counts, areas too")
            #expect(try await within("caf wien") == [])
            let box = try await server.send("GET", "/v1/flyers?bbox=16.35,48.19,16.52,48.31&q=caf")
            #expect(try AreaHTTPTests.ids(box) == ["central", "outside"], "\(box.text)")
            let bad = try await server.send("POST", "/v1/flyers/search", #"{"within": \#(Self.square), "q": "!!"}"#)
            #expect(bad.status == 400 && bad.text.contains("q"), "\(bad.text)")
            let badBox = try await server.send("GET", "/v1/flyers?bbox=16.35,48.19,16.52,48.31&q=%22%22")
            #expect(badBox.status == 400 && badBox.text.contains("'q'"), "\(badBox.text)")
        }
    }
}
