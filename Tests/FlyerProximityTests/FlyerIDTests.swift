import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("Flyer ids over HTTP: validated on create, percent-decoded in paths")
struct FlyerIDTests {
    /// Ids a person may well choose, with their percent-encoded path segment.
    static let unusualIDs = [
        ("x y/z", "x%20y%2Fz"), ("café", "caf%C3%A9"), ("%", "%25"), ("a+b", "a+b"), ("a+b", "a%2Bb")
    ]

    static func feature(id: String?, title: String = "Shop") -> String {
        let idMember = id.map { "\"id\": \(JSONText.string($0)), " } ?? ""
        return
            "{\"type\": \"Feature\", \(idMember)\"geometry\": {\"type\": \"Point\", \"coordinates\": [13.4, 52.5]}, \"properties\": {\"title\": \"\(title)\"}}"
    }

    @Test(
        "a flyer with spaces, a slash, non-ASCII, % or + in its id can be read, replaced and deleted",
        arguments: FlyerBackend.allCases)
    func unusualIDsRoundTrip(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            for (id, encoded) in Self.unusualIDs {
                let created = try await server.send("POST", "/v1/flyers", Self.feature(id: id))
                #expect(created.status == 201, "\(id): \(created.text)")
                let read = try await server.send("GET", "/v1/flyers/\(encoded)")
                #expect(read.status == 200, "GET \(encoded): \(read.text)")
                #expect(try read.json()["id"] as? String == id)
                let replaced = try await server.send(
                    "PUT", "/v1/flyers/\(encoded)", Self.feature(id: id, title: "Moved"))
                #expect(replaced.status == 200, "PUT \(encoded): \(replaced.text)")
                let deleted = try await server.send("DELETE", "/v1/flyers/\(encoded)")
                #expect(deleted.status == 204, "DELETE \(encoded): \(deleted.text)")
                #expect(try await server.send("GET", "/v1/flyers/\(encoded)").status == 404)
            }
        }
    }

    @Test(
        "an empty, over-long or control-character id is a 400 invalid_id naming the id and the rule",
        arguments: FlyerBackend.allCases)
    func invalidIDsRefused(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            let long = String(repeating: "a", count: 129)
            for id in [long, "tab\there", "line\nbreak", "nul\u{0}", "del\u{7F}"] {
                let created = try await server.send("POST", "/v1/flyers", Self.feature(id: id))
                #expect(created.status == 400, "\(id.debugDescription): \(created.text)")
                #expect(try created.error().code == "invalid_id")
                #expect(try created.error().message.contains("128 characters"))
            }
            let put = try await server.send("PUT", "/v1/flyers/\(long)", Self.feature(id: nil))
            #expect(put.status == 400, "\(put.text)")
            #expect(try put.error().code == "invalid_id")
            let put2 = try await server.send("PUT", "/v1/flyers/a%09b", Self.feature(id: nil))
            #expect(put2.status == 400, "\(put2.text)")
            #expect(try put2.error().code == "invalid_id")
            let longest = String(repeating: "é", count: 128)
            #expect(try await server.send("POST", "/v1/flyers", Self.feature(id: longest)).status == 201)
            #expect(try await server.send("GET", "/v1/flyers").status == 200)
        }
    }

    @Test(
        "a path segment that is not valid percent-encoding is a 400 with a JSON error", arguments: FlyerBackend.allCases
    )
    func undecodablePath(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            for path in ["/v1/flyers/%", "/v1/flyers/%ZZ", "/v1/flyers/%FF"] {
                let answer = try await server.send("GET", path)
                #expect(answer.status == 400, "\(path): \(answer.text)")
                #expect(try answer.error().code == "invalid_parameter")
            }
        }
    }

    @Test(
        "POST /v1/flyers/nearby is a 405 allowing only the methods of /v1/flyers/nearby",
        arguments: FlyerBackend.allCases)
    func allowListsOnlyThatPath(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server in
            let answer = try await server.send("POST", "/v1/flyers/nearby", "{}")
            #expect(answer.status == 405)
            #expect(answer.headers["allow"] == "GET, HEAD, OPTIONS")
            #expect(try answer.error().message.hasSuffix("use GET, HEAD, OPTIONS"))
        }
    }

    @Test("imports refuse an invalid id the same way, naming the feature or line")
    func importsValidateIDs() throws {
        #expect(throws: FlyerInputError.self) { try GeoJSONFlyers.read(Data(Self.feature(id: "a\u{1}b").utf8)) }
        do {
            _ = try GeoJSONFlyers.read(Data(Self.feature(id: String(repeating: "x", count: 200)).utf8))
            Issue.record("an over-long id was accepted")
        } catch {
            #expect(error.kind == .invalidID)
            #expect(error.description.contains("128 characters"))
        }
    }
}
