import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// Client-chosen run ids over a real HTTP socket: validated on start, percent-decoded in every `{id}` route.
@Suite struct RunIDTests {
    /// Runs `body` against a tracker server on a fresh store and stops it on every path.
    func withServer(_ body: (TrackerServer) async throws -> Void) async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let server = try await TrackerServer.start(store: folder.store)
        try await server.server.run { _ in try await body(server) }
    }

    @Test("an empty, over-long or control-character id is refused with 400 invalid_id, and nothing is started")
    func invalidIDs() async throws {
        try await withServer { server in
            for id in ["", String(repeating: "r", count: 129), "run\u{1}", "tab\there", "bell\u{7}"] {
                let body = "{\"id\": \(JSONText.quoted(id))}"
                let answer = try await server.call("POST", "/v1/runs", body)
                #expect(answer.status == 400, "\(id.debugDescription): \(answer.text)")
                #expect(answer.errorCode == "invalid_id")
                let message = ((try? answer.json())?["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("128 characters"), "\(message)")
            }
            #expect(try await server.call("GET", "/v1/runs/active").status == 404)
        }
    }

    @Test("a run whose id has a space, a slash, non-ASCII, % or + can be stopped, read, exported and discarded")
    func unusualIDs() async throws {
        try await withServer { server in
            for (id, encoded) in [
                ("a b", "a%20b"), ("x y/z", "x%20y%2Fz"), ("café", "caf%C3%A9"), ("%", "%25"), ("a+b", "a+b"),
                (String(repeating: "é", count: 128), String(repeating: "%C3%A9", count: 128))
            ] {
                let started = try await server.call("POST", "/v1/runs", "{\"id\": \(JSONText.quoted(id))}")
                #expect(started.status == 201, "\(id): \(started.text)")
                let paused = try await server.call("POST", "/v1/runs/\(encoded)/pause")
                #expect(paused.status == 200, "pause \(encoded): \(paused.text)")
                let stopped = try await server.call("POST", "/v1/runs/\(encoded)/stop")
                #expect(stopped.status == 200, "stop \(encoded): \(stopped.text)")
                let detail = try await server.call("GET", "/v1/runs/\(encoded)")
                #expect(detail.status == 200, "detail \(encoded): \(detail.text)")
                #expect(((try? detail.json())?["run"] as? [String: Any])?["id"] as? String == id)
                let export = try await server.call("GET", "/v1/runs/\(encoded).gpx")
                #expect(export.status == 200, "export \(encoded): \(export.text.prefix(200))")
                let discarded = try await server.call("POST", "/v1/runs/\(encoded)/discard")
                #expect(discarded.status == 204, "discard \(encoded): \(discarded.text)")
            }
        }
    }
}

/// JSON string literals for test bodies.
private enum JSONText {
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
