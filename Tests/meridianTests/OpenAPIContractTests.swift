import Foundation
import MeridianTesting
import Testing
import Yams

/// Checks docs/openapi.yaml against the running service: every answer's status is documented
/// for its operation, and JSON bodies match the documented schema (types, required keys, enums,
/// and no undocumented keys where the schema lists properties).
@Suite("OpenAPI document matches the server")
struct OpenAPIContractTests {
    // MARK: Documented GETs without path parameters

    @Test("documented GET routes answer as documented")
    func documentedRoutes() async throws {
        let spec = try OpenAPISpec()
        let served = try await ServedInstance()
        defer { served.stop() }
        try await served.waitForPosition()
        var checked = 0
        for (path, item) in spec.paths.sorted(by: { $0.key < $1.key }) where !path.contains("{") && path != "/v1/events"
        {
            guard let get = (item as? [String: Any])?["get"] as? [String: Any] else { continue }
            let required = ((get["parameters"] as? [[String: Any]]) ?? []).contains { $0["required"] as? Bool == true }
            guard !required else { continue }
            let response = try await served.client.request("GET", path)
            spec.expectDocumented(response, "get", path)
            checked += 1
        }
        #expect(checked >= 9)
    }

    // MARK: Errors

    @Test("unknown ids answer 404 and invalid parameters 400, both documented with the Error shape")
    func documentedErrors() async throws {
        let spec = try OpenAPISpec()
        let served = try await ServedInstance()
        defer { served.stop() }
        let cases: [(method: String, path: String, template: String, status: Int)] = [
            ("GET", "/v1/flyers/does-not-exist", "/v1/flyers/{id}", 404),
            ("DELETE", "/v1/flyers/does-not-exist", "/v1/flyers/{id}", 404),
            ("GET", "/v1/maplinks/flyer/does-not-exist", "/v1/maplinks/flyer/{id}", 404),
            ("GET", "/v1/runs/does-not-exist", "/v1/runs/{id}", 404),
            ("DELETE", "/v1/runs/does-not-exist", "/v1/runs/{id}", 404),
            ("GET", "/v1/runs/does-not-exist/edits", "/v1/runs/{id}/edits", 404),
            ("GET", "/v1/runs/does-not-exist.gpx", "/v1/runs/{id}.gpx", 404),
            ("GET", "/v1/runs/does-not-exist/route.svg", "/v1/runs/{id}/route.svg", 404),
            ("POST", "/v1/runs/does-not-exist/restore", "/v1/runs/{id}/restore", 404),
            ("POST", "/v1/runs/does-not-exist/stop", "/v1/runs/{id}/stop", 404),
            ("POST", "/v1/runs/does-not-exist/pause", "/v1/runs/{id}/pause", 404),
            ("POST", "/v1/runs/does-not-exist/discard", "/v1/runs/{id}/discard", 404),
            ("GET", "/v1/runs/active", "/v1/runs/active", 404),
            ("GET", "/v1/flyers/nearby?lat=999&lon=0", "/v1/flyers/nearby", 400),
            ("GET", "/v1/flyers/nearby?lat=10", "/v1/flyers/nearby", 400),
            ("GET", "/v1/flyers/nearby?include_inactive=maybe", "/v1/flyers/nearby", 400),
            ("GET", "/v1/flyers?limit=0", "/v1/flyers", 400),
            ("GET", "/v1/maplinks?to=abc", "/v1/maplinks", 400),
            ("GET", "/v1/maplinks?to=1,2&style=bing", "/v1/maplinks", 400),
            ("GET", "/v1/runs?limit=0", "/v1/runs", 400),
            ("GET", "/v1/runs?from=yesterday", "/v1/runs", 400),
            ("GET", "/v1/runs/does-not-exist?max_points=1", "/v1/runs/{id}", 400),
            ("DELETE", "/v1/runs", "/v1/runs", 400),
            ("GET", "/v1/records?distance=3k", "/v1/records", 400),
            ("GET", "/v1/records?activity=swim", "/v1/records", 400),
            ("GET", "/v1/runs?activity=swim", "/v1/runs", 400),
            ("GET", "/v1/runs/stats?by=fortnight", "/v1/runs/stats", 400),
            ("GET", "/v1/runs/stats?from=2024-05-02&to=2024-05-01", "/v1/runs/stats", 400),
            ("GET", "/v1/runs/compare?a=does-not-exist&b=nor-this", "/v1/runs/compare", 404),
            ("GET", "/v1/runs/compare?a=does-not-exist", "/v1/runs/compare", 400),
            ("GET", "/v1/routes?min_runs=0", "/v1/routes", 400),
            ("GET", "/v1/routes/999", "/v1/routes/{id}", 404),
            ("GET", "/v1/segments/does-not-exist", "/v1/segments/{id}", 404),
            ("DELETE", "/v1/segments/does-not-exist", "/v1/segments/{id}", 404),
            ("GET", "/v1/segments/does-not-exist/efforts", "/v1/segments/{id}/efforts", 404)
        ]
        for (method, path, template, status) in cases {
            let response = try await served.client.request(method, path)
            #expect(
                response.status == status,
                "\(method) \(path) answered \(response.status), expected \(status): \(response.text.prefix(300))")
            spec.expectDocumented(response, method.lowercased(), template)
            spec.expectMatches(
                try? JSONSerialization.jsonObject(with: response.body), "#/components/schemas/Error",
                "\(method) \(path)")
        }
        let invalidBodies: [(method: String, path: String, template: String, body: String)] = [
            (
                "POST", "/v1/flyers", "/v1/flyers",
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{}}"#
            ),
            ("POST", "/v1/runs", "/v1/runs", #"{"activity":"swim"}"#),
            ("POST", "/v1/runs", "/v1/runs", "not json"),
            ("POST", "/v1/segments", "/v1/segments", #"{"name":"Hill","run_id":"x","from_km":0}"#),
            (
                "POST", "/v1/segments", "/v1/segments",
                #"{"name":"Hill","run_id":"x","from_km":0,"to_km":1,"colour":"red"}"#
            )
        ]
        for (method, path, template, body) in invalidBodies {
            let response = try await served.client.request(method, path, body: Data(body.utf8))
            #expect(
                response.status == 400,
                "\(method) \(path) with \(body) answered \(response.status): \(response.text.prefix(300))")
            spec.expectDocumented(response, method.lowercased(), template)
        }
    }

    // MARK: Write flows

    @Test("flyer create, read, search, link and delete answer as documented")
    func flyerFlow() async throws {
        let spec = try OpenAPISpec()
        let served = try await ServedInstance()
        defer { served.stop() }
        let feature = #"""
            {"type":"Feature","id":"contract-bakery","geometry":{"type":"Point","coordinates":[8.55,47.3674]},
             "properties":{"title":"Bakery","category":"food","radius_m":50,"valid_from":"2024-01-01"}}
            """#
        let created = try await served.client.request(
            "POST", "/v1/flyers", body: Data(feature.utf8), contentType: "application/geo+json")
        #expect(created.status == 201, "\(created.text)")
        spec.expectDocumented(created, "post", "/v1/flyers")
        #expect(try created.json()["ids"] as? [String] == ["contract-bakery"])

        let duplicate = try await served.client.request("POST", "/v1/flyers", body: Data(feature.utf8))
        #expect(duplicate.status == 409, "\(duplicate.text)")
        spec.expectDocumented(duplicate, "post", "/v1/flyers")

        let read = try await served.client.request("GET", "/v1/flyers/contract-bakery")
        #expect(read.status == 200, "\(read.text)")
        spec.expectDocumented(read, "get", "/v1/flyers/{id}")

        let nearby = try await served.client.request("GET", "/v1/flyers/nearby?lat=47.367&lon=8.55&radius_m=1000")
        #expect(nearby.status == 200, "\(nearby.text)")
        spec.expectDocumented(nearby, "get", "/v1/flyers/nearby")
        let items = try #require(try nearby.json()["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["contract-bakery"])

        let list = try await served.client.request("GET", "/v1/flyers")
        spec.expectDocumented(list, "get", "/v1/flyers")

        let link = try await served.client.request("GET", "/v1/maplinks/flyer/contract-bakery?mode=show")
        #expect(link.status == 200, "\(link.text)")
        spec.expectDocumented(link, "get", "/v1/maplinks/flyer/{id}")

        let replacement =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8.56,47.37]},"properties":{"title":"Bakery (moved)"}}"#
        let replaced = try await served.client.request(
            "PUT", "/v1/flyers/contract-bakery", body: Data(replacement.utf8))
        #expect(replaced.status == 200, "\(replaced.text)")
        spec.expectDocumented(replaced, "put", "/v1/flyers/{id}")

        let deleted = try await served.client.request("DELETE", "/v1/flyers/contract-bakery")
        #expect(deleted.status == 204, "\(deleted.text)")
        spec.expectDocumented(deleted, "delete", "/v1/flyers/{id}")
        let gone = try await served.client.request("GET", "/v1/flyers/contract-bakery")
        #expect(gone.status == 404)
        spec.expectDocumented(gone, "get", "/v1/flyers/{id}")
    }

    @Test("run start, live status, stop and discard answer as documented")
    func runFlow() async throws {
        let spec = try OpenAPISpec()
        let served = try await ServedInstance()
        defer { served.stop() }
        let started = try await served.client.request(
            "POST", "/v1/runs", body: Data(#"{"name":"Contract","activity":"run","id":"contract-run"}"#.utf8))
        #expect(started.status == 201, "\(started.text)")
        spec.expectDocumented(started, "post", "/v1/runs")

        let again = try await served.client.request("POST", "/v1/runs", body: Data(#"{"name":"Other"}"#.utf8))
        #expect(again.status == 409, "\(again.text)")
        spec.expectDocumented(again, "post", "/v1/runs")

        // Wait until the run has received fixes (the sample replay sends one per second).
        var active = try await served.client.request("GET", "/v1/runs/active")
        try await ManagedProcess.waitUntil(timeout: 10, "the run's first points") {
            active = try await served.client.request("GET", "/v1/runs/active")
            return ((try? active.json()["run"] as? [String: Any])?["points"] as? Int ?? 0) > 0
        }
        #expect(active.status == 200, "\(active.text)")
        spec.expectDocumented(active, "get", "/v1/runs/active")
        let run = try #require(try active.json()["run"] as? [String: Any])
        #expect(run["id"] as? String == "contract-run")
        #expect(run["points"] as? Int ?? 0 > 0, "no fix reached the run within 10 s: \(active.text.prefix(300))")

        for command in ["pause", "resume"] {
            let answer = try await served.client.request("POST", "/v1/runs/contract-run/\(command)")
            #expect(answer.status == 200, "\(command): \(answer.text)")
            spec.expectDocumented(answer, "post", "/v1/runs/{id}/\(command)")
        }

        let stopped = try await served.client.request("POST", "/v1/runs/contract-run/stop")
        #expect(stopped.status == 200, "\(stopped.text)")
        spec.expectDocumented(stopped, "post", "/v1/runs/{id}/stop")

        // A few seconds of running is too short to save: it is a draft, with a detail and exports.
        let detail = try await served.client.request("GET", "/v1/runs/contract-run")
        #expect(detail.status == 200, "\(detail.text)")
        spec.expectDocumented(detail, "get", "/v1/runs/{id}")
        let renamed = try await served.client.request(
            "PATCH", "/v1/runs/contract-run", body: Data(#"{"notes":"contract"}"#.utf8))
        #expect(renamed.status == 200, "\(renamed.text)")
        spec.expectDocumented(renamed, "patch", "/v1/runs/{id}")
        let edits = try await served.client.request("GET", "/v1/runs/contract-run/edits")
        spec.expectDocumented(edits, "get", "/v1/runs/{id}/edits")
        for format in ["gpx", "tcx", "geojson"] {
            let export = try await served.client.request("GET", "/v1/runs/contract-run.\(format)")
            #expect(export.status == 200, "\(format): \(export.text.prefix(300))")
            spec.expectDocumented(export, "get", "/v1/runs/{id}.\(format)")
        }

        let discarded = try await served.client.request("POST", "/v1/runs/contract-run/discard")
        #expect(discarded.status == 204, "\(discarded.text)")
        spec.expectDocumented(discarded, "post", "/v1/runs/{id}/discard")
        let none = try await served.client.request("GET", "/v1/runs/active")
        #expect(none.status == 404)
        spec.expectDocumented(none, "get", "/v1/runs/active")
    }

    @Test("stats, comparisons, routes, segments and records of imported runs answer as documented")
    func progressFlow() async throws {
        let spec = try OpenAPISpec()
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("runs.sqlite").path
        let file = TestData.url("gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx").path
        for extra in [[], ["--allow-duplicates", "--name", "Again"]] {
            let imported = try MeridianBinary.run(["runs", "import", file, "--db", database] + extra)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let served = try await ServedInstance(extraEnvironment: ["MERIDIAN_DB": database])
        defer { served.stop() }
        let runs = try #require(try await served.client.request("GET", "/v1/runs").json()["runs"] as? [[String: Any]])
        let ids = runs.compactMap { $0["id"] as? String }
        #expect(ids.count == 2)

        let documented: [(path: String, template: String)] = [
            ("/v1/runs/stats?by=month&from=2009-11-01&to=2010-01-31", "/v1/runs/stats"),
            ("/v1/runs/stats?by=year", "/v1/runs/stats"),
            ("/v1/runs/compare?a=\(ids[0])&b=\(ids[1])", "/v1/runs/compare"),
            ("/v1/routes?min_runs=1", "/v1/routes"),
            ("/v1/records", "/v1/records")
        ]
        for (path, template) in documented {
            let answer = try await served.client.request("GET", path)
            #expect(answer.status == 200, "\(path): \(answer.text.prefix(300))")
            spec.expectDocumented(answer, "get", template)
        }
        let route = try #require(
            (try await served.client.request("GET", "/v1/routes").json()["routes"] as? [[String: Any]])?.first)
        let routeAnswer = try await served.client.request("GET", "/v1/routes/\(try #require(route["id"] as? Int))")
        #expect(routeAnswer.status == 200)
        spec.expectDocumented(routeAnswer, "get", "/v1/routes/{id}")

        let body = #"{"name": "Second kilometre", "run_id": "\#(ids[0])", "from_km": 1, "to_km": 2}"#
        let created = try await served.client.request("POST", "/v1/segments", body: Data(body.utf8))
        #expect(created.status == 201, "\(created.text)")
        spec.expectDocumented(created, "post", "/v1/segments")
        let id = try #require(try created.json()["id"] as? Int)
        let empty = try await served.client.request(
            "POST", "/v1/segments",
            body: Data(#"{"name": "Lonely", "run_id": "\#(ids[0])", "from_km": 2, "to_km": 3}"#.utf8))
        spec.expectDocumented(empty, "post", "/v1/segments")
        for (path, template) in [
            ("/v1/segments", "/v1/segments"), ("/v1/segments/\(id)", "/v1/segments/{id}"),
            ("/v1/segments/\(id)/efforts", "/v1/segments/{id}/efforts")
        ] {
            let answer = try await served.client.request("GET", path)
            #expect(answer.status == 200, "\(path): \(answer.text.prefix(300))")
            spec.expectDocumented(answer, "get", template)
        }
        let duplicate = try await served.client.request("POST", "/v1/segments", body: Data(body.utf8))
        #expect(duplicate.status == 409)
        spec.expectDocumented(duplicate, "post", "/v1/segments")
        let deleted = try await served.client.request("DELETE", "/v1/segments/\(id)")
        #expect(deleted.status == 204)
        spec.expectDocumented(deleted, "delete", "/v1/segments/{id}")
    }

    // MARK: The document itself

    @Test("every documented operation has responses and a summary")
    func wellFormed() throws {
        let spec = try OpenAPISpec()
        for (path, item) in spec.paths {
            for (method, operation) in try #require(item as? [String: Any])
            where ["get", "post", "put", "patch", "delete"].contains(method) {
                let operation = try #require(operation as? [String: Any])
                #expect(operation["summary"] is String, "\(method) \(path) lacks a summary")
                #expect(
                    (operation["responses"] as? [String: Any])?.isEmpty == false, "\(method) \(path) lacks responses")
            }
        }
    }

    @Test("every operation documents 400 (unknown query parameters) and 401 (a token is configured)")
    func everyOperationDocumentsAuthAndBadRequest() throws {
        let spec = try OpenAPISpec()
        for (path, item) in spec.paths {
            for (method, operation) in try #require(item as? [String: Any])
            where ["get", "post", "put", "patch", "delete"].contains(method) {
                let responses = try #require((operation as? [String: Any])?["responses"] as? [String: Any])
                #expect(responses["401"] != nil, "\(method) \(path) does not document 401")
                #expect(responses["400"] != nil, "\(method) \(path) does not document 400")
            }
        }
    }

    @Test("the schema check rejects bodies that differ from the document")
    func schemaCheckCanFail() throws {
        let spec = try OpenAPISpec()
        let error = "#/components/schemas/Error"
        #expect(spec.problems(["error": ["code": "x", "message": "y"]], error).isEmpty)
        #expect(!spec.problems(["error": ["code": "x"]], error).isEmpty)
        #expect(!spec.problems(["error": ["code": 1, "message": "y"]], error).isEmpty)
        #expect(!spec.problems(["error": ["code": "x", "message": "y", "detail": "z"]], error).isEmpty)
        #expect(
            !spec.problems(["items": [], "location_available": "yes"], "#/components/schemas/NearbyResponse").isEmpty)
        #expect(!spec.problems(NSNull(), ["type": "string", "nullable": true, "enum": ["a"]]).isEmpty)
        #expect(spec.problems(NSNull(), ["type": "string", "nullable": true, "enum": ["a", NSNull()]]).isEmpty)
    }
}

/// docs/openapi.yaml, with the checks the contract tests need.
struct OpenAPISpec {
    let root: [String: Any]
    let paths: [String: Any]

    init() throws {
        let text = try String(
            contentsOf: TestData.repositoryRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        root = try #require(try Yams.load(yaml: text) as? [String: Any])
        paths = try #require(root["paths"] as? [String: Any])
    }

    /// Follows local `$ref`s such as `#/components/schemas/Fix`.
    func resolve(_ node: Any?) -> [String: Any]? {
        guard let object = node as? [String: Any] else { return nil }
        guard let reference = object["$ref"] as? String, reference.hasPrefix("#/") else { return object }
        var current: Any? = root
        for part in reference.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)]
        }
        return resolve(current)
    }

    /// Expects `response.status` to be documented for `method template` and a JSON body to match its schema.
    func expectDocumented(
        _ response: HTTPTestClient.Response, _ method: String, _ template: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let label = "\(method.uppercased()) \(template) → \(response.status)"
        guard let operation = (paths[template] as? [String: Any])?[method] as? [String: Any] else {
            Issue.record("\(method.uppercased()) \(template) is not documented", sourceLocation: sourceLocation)
            return
        }
        guard let documented = resolve((operation["responses"] as? [String: Any])?[String(response.status)]) else {
            Issue.record(
                "\(label) is not a documented status: \(response.text.prefix(300))", sourceLocation: sourceLocation)
            return
        }
        guard let content = documented["content"] as? [String: Any] else {
            #expect(
                response.body.isEmpty,
                "\(label) is documented without a body but has one: \(response.text.prefix(300))",
                sourceLocation: sourceLocation)
            return
        }
        let contentType = response.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        let mediaType = String(contentType.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces)
        guard let media = content[mediaType] as? [String: Any] else {
            Issue.record(
                "\(label) has content type '\(contentType)', documented: \(content.keys.sorted())",
                sourceLocation: sourceLocation)
            return
        }
        guard mediaType.hasSuffix("json"), let schema = media["schema"] else { return }
        guard let body = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]) else {
            Issue.record("\(label): the body is not JSON: \(response.text.prefix(300))", sourceLocation: sourceLocation)
            return
        }
        for problem in problems(body, schema) {
            Issue.record("\(label): \(problem) in \(response.text.prefix(400))", sourceLocation: sourceLocation)
        }
    }

    /// Expects `value` to match the schema at `reference`.
    func expectMatches(
        _ value: Any?, _ reference: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for problem in problems(value as Any, reference) {
            Issue.record("\(label): \(problem)", sourceLocation: sourceLocation)
        }
    }

    func problems(_ value: Any, _ reference: String) -> [String] {
        problems(value, ["$ref": reference])
    }

    /// Where `value` differs from `schema`: type, `nullable`, `enum`, `required`, `properties`
    /// (keys not listed are problems unless `additionalProperties` is given), `items`, `allOf`, `oneOf`.
    func problems(_ value: Any, _ schemaNode: Any, at path: String = "$") -> [String] {
        guard let schema = resolve(schemaNode) else { return ["\(path): the document has no schema here"] }
        if let variants = schema["oneOf"] as? [Any] {
            let results = variants.map { problems(value, $0, at: path) }
            return results.contains { $0.isEmpty } ? [] : ["\(path): matches none of oneOf: \(results.flatMap { $0 })"]
        }
        if let parts = schema["allOf"] as? [Any] {
            var merged: [String: Any] = ["type": "object"]
            var properties: [String: Any] = [:]
            var required: [String] = []
            if let nullable = schema["nullable"] { merged["nullable"] = nullable }
            for part in parts.compactMap({ resolve($0) }) {
                properties.merge((part["properties"] as? [String: Any]) ?? [:]) { $1 }
                required += (part["required"] as? [String]) ?? []
                if let type = part["type"] { merged["type"] = type }
                if let items = part["items"] { merged["items"] = items }
            }
            if !properties.isEmpty { merged["properties"] = properties }
            if !required.isEmpty { merged["required"] = required }
            return problems(value, merged, at: path)
        }
        if value is NSNull {
            // OpenAPI 3.0.3: with an enum, null is valid only when the enum lists it.
            if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { $0 is NSNull }) {
                return ["\(path): null, but the enum \(allowed) does not list null"]
            }
            return schema["nullable"] as? Bool == true ? [] : ["\(path): null, but the schema is not nullable"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
            return ["\(path): '\(value)' is not one of \(allowed)"]
        }
        switch schema["type"] as? String {
        case "string":
            return value is String ? [] : ["\(path): expected a string, got \(value)"]
        case "boolean":
            return value is Bool ? [] : ["\(path): expected a boolean, got \(value)"]
        case "number":
            return (value as? NSNumber) != nil && !(value is String) ? [] : ["\(path): expected a number, got \(value)"]
        case "integer":
            guard let number = (value as? NSNumber)?.doubleValue, number == number.rounded() else {
                return ["\(path): expected an integer, got \(value)"]
            }
            return []
        case "array":
            guard let array = value as? [Any] else { return ["\(path): expected an array, got \(value)"] }
            guard let items = schema["items"] else { return [] }
            return array.enumerated().flatMap { problems($0.element, items, at: "\(path)[\($0.offset)]") }
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path): expected an object, got \(value)"] }
            var found: [String] = []
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil {
                found.append("\(path): required key '\(key)' is missing")
            }
            let properties = (schema["properties"] as? [String: Any]) ?? [:]
            let additional = schema["additionalProperties"]
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    found += problems(member, property, at: "\(path).\(key)")
                } else if let additionalSchema = additional as? [String: Any] {
                    if !additionalSchema.isEmpty { found += problems(member, additionalSchema, at: "\(path).\(key)") }
                } else if !properties.isEmpty || additional as? Bool == false {
                    found.append("\(path): key '\(key)' is not documented")
                }
            }
            return found
        default:
            return []
        }
    }
}
