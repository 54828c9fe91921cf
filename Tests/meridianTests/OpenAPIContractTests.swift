import Foundation
import MeridianTesting
import Testing
import Yams

/// Checks docs/openapi.yaml against the running service: every documented GET without
/// path parameters answers with a documented status, and JSON bodies carry the schema's
/// required top-level keys.
@Suite("OpenAPI document matches the server")
struct OpenAPIContractTests {
    private func loadSpec() throws -> [String: Any] {
        let text = try String(contentsOf: TestData.repositoryRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// Follows a local `$ref` such as `#/components/schemas/Fix`.
    private func resolve(_ node: Any?, in spec: [String: Any]) -> [String: Any]? {
        guard let object = node as? [String: Any] else { return nil }
        guard let reference = object["$ref"] as? String, reference.hasPrefix("#/") else { return object }
        var current: Any? = spec
        for part in reference.dropFirst(2).split(separator: "/") { current = (current as? [String: Any])?[String(part)] }
        return resolve(current, in: spec)
    }

    @Test("documented GET routes answer as documented")
    func documentedRoutes() async throws {
        let spec = try loadSpec()
        let paths = try #require(spec["paths"] as? [String: Any])
        let served = try await ServedInstance()
        defer { served.stop() }
        try await served.waitForPosition()
        var checked = 0
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) where !path.contains("{") && path != "/v1/events" {
            guard let get = (item as? [String: Any])?["get"] as? [String: Any] else { continue }
            let required = ((get["parameters"] as? [[String: Any]]) ?? []).contains { $0["required"] as? Bool == true }
            guard !required else { continue }
            let responses = try #require(get["responses"] as? [String: Any], "\(path) has no responses")
            let response = try await served.client.request("GET", path)
            let documented = responses[String(response.status)]
            #expect(documented != nil, "GET \(path) answered \(response.status), which is not documented: \(response.text.prefix(300))")
            checked += 1
            guard let content = resolve(documented, in: spec)?["content"] as? [String: Any],
                  let schema = resolve((content["application/json"] as? [String: Any])?["schema"], in: spec),
                  let keys = schema["required"] as? [String] else { continue }
            let body = try response.json()
            for key in keys {
                #expect(body[key] != nil, "GET \(path): required key '\(key)' missing in \(response.text.prefix(300))")
            }
        }
        #expect(checked >= 4)
    }

    @Test("every documented operation has responses and a summary")
    func wellFormed() throws {
        let spec = try loadSpec()
        let paths = try #require(spec["paths"] as? [String: Any])
        for (path, item) in paths {
            for (method, operation) in try #require(item as? [String: Any]) where ["get", "post", "put", "patch", "delete"].contains(method) {
                let operation = try #require(operation as? [String: Any])
                #expect(operation["summary"] is String, "\(method) \(path) lacks a summary")
                #expect((operation["responses"] as? [String: Any])?.isEmpty == false, "\(method) \(path) lacks responses")
            }
        }
    }
}
