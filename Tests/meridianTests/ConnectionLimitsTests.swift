import Foundation
import MeridianTesting
import Testing

/// `meridian serve` against clients that hold connections open, send half a request, malformed
/// HTTP or too much of it, over real sockets.
@Suite("HTTP connection limits of meridian serve")
struct ConnectionLimitsTests {
    /// True once `data` holds a whole response with a Content-Length body.
    static func isComplete(_ data: Data) -> Bool {
        guard let response = try? HTTPTestClient.parse(data) else { return false }
        return response.body.count >= Int(response.headers["content-length"] ?? "0") ?? 0
    }

    /// Sends `byte` every half second (up to 30 s) until the server answers or closes, then reads until it closes
    /// (up to 10 s more).
    static func trickle(_ byte: String, to socket: TestSocket) async throws -> (data: Data, closed: Bool) {
        var answer = Data()
        var closed = false
        for _ in 0..<60 where !closed && answer.isEmpty {
            try? await socket.send(byte)
            (answer, closed) = try await socket.read(timeout: 0.5) { !$0.isEmpty }
        }
        if !closed { (answer, closed) = try await socket.readUntilClosed(timeout: 10) }
        return (answer, closed)
    }

    @Test("a connection that sends nothing is closed after http.idle_timeout")
    func idleConnectionClosed() async throws {
        let served = try await ServedInstance(http: ["idle_timeout: 1"])
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        let (data, closed) = try await socket.readUntilClosed(timeout: 20)
        #expect(closed, "the idle connection was still open after 20 s")
        #expect(data.isEmpty)
    }

    @Test("a request head trickled a byte at a time gets a 408 JSON error and is closed after http.header_timeout")
    func slowHeadClosed() async throws {
        let served = try await ServedInstance(http: ["idle_timeout: 120", "header_timeout: 1"])
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        try await socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let (answer, closed) = try await Self.trickle("X", to: socket)
        #expect(closed, "the slow connection was still open: \(String(decoding: answer, as: UTF8.self))")
        let response = try HTTPTestClient.parse(answer)
        #expect(response.status == 408)
        #expect(try response.error().code == "request_timeout")
    }

    @Test("a kept-alive connection may wait longer than http.header_timeout between requests")
    func keepAliveOutlivesHeaderTimeout() async throws {
        let served = try await ServedInstance(http: ["header_timeout: 1"])
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        try await socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let first = try await socket.read(timeout: 10, until: Self.isComplete)
        #expect(try HTTPTestClient.parse(first.data).status == 200)
        try await Task.sleep(for: .seconds(2.5))
        try await socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let (both, _) = try await socket.readUntilClosed(timeout: 10)
        let second = try HTTPTestClient.parse(Data(both.dropFirst(first.data.count)))
        #expect(second.status == 200)
    }

    @Test("a body over the limit is answered 413 and the connection closed without reading the rest")
    func tooLargeClosesConnection() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        try await socket.send(
            "POST /v1/flyers HTTP/1.1\r\nHost: 127.0.0.1\r\n\(served.authorization)Content-Type: application/json\r\nContent-Length: 20000000\r\n\r\n"
        )
        try await socket.send(String(repeating: " ", count: 4096))
        let (data, closed) = try await socket.readUntilClosed(timeout: 10)
        let response = try HTTPTestClient.parse(data)
        #expect(response.status == 413)
        #expect(try response.error().code == "body_too_large")
        #expect(closed, "the connection stayed open after the 413")
    }

    @Test("a malformed chunked body is a 400 with a JSON error, not a 413")
    func malformedChunkedBody() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        try await socket.send(
            "POST /v1/flyers HTTP/1.1\r\nHost: 127.0.0.1\r\n\(served.authorization)Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n"
        )
        let (data, closed) = try await socket.readUntilClosed(timeout: 10)
        let response = try HTTPTestClient.parse(data)
        #expect(response.status == 400, "\(response.text)")
        #expect(try response.error().code == "malformed_request")
        #expect(closed)
    }

    @Test("a request that is not valid HTTP is a 400 with a JSON error body")
    func malformedRequest() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        for request in [
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
            "GET /he alth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        ] {
            let socket = try TestSocket(port: served.client.port)
            try await socket.send(request)
            let (data, _) = try await socket.readUntilClosed(timeout: 10)
            let response = try HTTPTestClient.parse(data)
            #expect(response.status == 400)
            #expect(try response.error().code == "malformed_request", "\(request.debugDescription): \(response.text)")
        }
    }

    @Test("HEAD answers like GET without a body; OPTIONS answers 204 with the path's methods")
    func headAndOptions() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        // A route whose answer does not change between the two requests (provider counters do).
        let get = try await served.client.request("GET", "/v1/runs")
        let head = try await served.client.request("HEAD", "/v1/runs")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-type"] == get.headers["content-type"])
        #expect(head.headers["content-length"] == String(get.body.count))
        let missing = try await served.client.request("HEAD", "/v1/runs/does-not-exist")
        #expect(missing.status == 404 && missing.body.isEmpty)

        let options = try await served.client.request("OPTIONS", "/v1/flyers/some-id")
        #expect(options.status == 204)
        #expect(options.headers["allow"] == "DELETE, GET, HEAD, OPTIONS, PUT")
        let nearby = try await served.client.request("OPTIONS", "/v1/flyers/nearby")
        #expect(nearby.headers["allow"] == "GET, HEAD, OPTIONS")
        let unknown = try await served.client.request("OPTIONS", "/v1/nowhere")
        #expect(unknown.status == 404)
        #expect(try unknown.error().code == "not_found")
    }

    @Test("with a token: 401 says WWW-Authenticate: Bearer; /health stays open with status, version and uptime only")
    func tokenAndHealth() async throws {
        let served = try await ServedInstance(extraEnvironment: ["MERIDIAN_TOKEN": "s3cret-token-0123"])
        defer { served.stop() }
        let denied = try await served.client.request("GET", "/v1/providers")
        #expect(denied.status == 401)
        #expect(denied.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try denied.error().code == "unauthorized")

        let open = try await served.client.request("GET", "/health")
        #expect(open.status == 200)
        #expect(Set(try open.json().keys) == ["status", "version", "uptime_s"])
        let full = try await HTTPTestClient(
            port: served.client.port, headers: ["Authorization": "Bearer s3cret-token-0123"]
        ).request("GET", "/health")
        #expect(try full.json()["providers"] as? Int == 1)
    }

    @Test("http.protect_health puts /health behind the token too")
    func protectedHealth() async throws {
        let served = try await ServedInstance(
            extraEnvironment: ["MERIDIAN_TOKEN": "s3cret-token-0123"], http: ["protect_health: true"])
        defer { served.stop() }
        let denied = try await served.client.request("GET", "/health")
        #expect(denied.status == 401)
        let allowed = try await HTTPTestClient(
            port: served.client.port, headers: ["Authorization": "Bearer s3cret-token-0123"]
        ).request("GET", "/health")
        #expect(allowed.status == 200)
    }

    @Test("bad timeouts in the configuration are refused, naming the key")
    func badTimeouts() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("m.yaml")
        try "http:\n  idle_timeout: 0\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try MeridianBinary.run(["config", "check", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("http.idle_timeout"), "\(result.stderr)")
    }
}

extension HTTPTestClient.Response {
    /// `error.code` and `error.message` of an error answer.
    func error() throws -> (code: String, message: String) {
        let error = try #require(try json()["error"] as? [String: Any], "not a JSON error: \(text)")
        return (error["code"] as? String ?? "", error["message"] as? String ?? "")
    }
}

@Suite("Bad input to meridian serve: always a JSON 4xx, never a 5xx")
struct BadInputTests {
    @Test("a body in another media type than JSON is a 415 naming the expected type")
    func wrongContentType() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        for (method, path) in [
            ("POST", "/v1/runs"), ("POST", "/v1/flyers"), ("PUT", "/v1/flyers/x"), ("PATCH", "/v1/runs/x")
        ] {
            let answer = try await served.client.request(
                method, path, body: Data("name=x".utf8), contentType: "application/x-www-form-urlencoded")
            #expect(answer.status == 415, "\(method) \(path): \(answer.text)")
            #expect(try answer.error().message.contains("application/json"))
        }
    }

    @Test("unknown or repeated query parameters are a 400 naming the parameter")
    func unknownQueryParameters() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        for (path, name) in [
            ("/v1/flyers?limt=5", "limt"), ("/v1/runs?limit=5&limit=6", "limit"), ("/v1/position?x=1", "x"),
            ("/v1/flyers/nearby?lat=1&lon=2&radius=5", "radius")
        ] {
            let answer = try await served.client.request("GET", path)
            #expect(answer.status == 400, "\(path): \(answer.text)")
            #expect(try answer.error().message.contains("'\(name)'"), "\(path): \(answer.text)")
        }
    }

    @Test("wrong JSON types, huge values and broken JSON are 4xx with a JSON error")
    func badValues() async throws {
        let served = try await ServedInstance()
        defer { served.stop() }
        let huge = String(repeating: "9", count: 5000)
        let cases: [(String, String, String?)] = [
            ("POST", "/v1/runs", #"{"id": 5}"#), ("POST", "/v1/runs", #"{"name": ["x"]}"#), ("POST", "/v1/runs", "{"),
            ("POST", "/v1/runs", "[1,2]"), ("POST", "/v1/flyers", #"{"type": "Feature", "geometry": 5}"#),
            ("POST", "/v1/flyers", "\u{FFFF}\u{0}"), ("PATCH", "/v1/runs/x", #"{"name": 5}"#),
            ("GET", "/v1/flyers?limit=\(huge)", nil), ("GET", "/v1/flyers/nearby?lat=1e999&lon=0", nil),
            ("GET", "/v1/runs?cursor=\(huge)", nil), ("GET", "/v1/runs/x/route.svg?width=-\(huge)", nil),
            ("GET", "/v1/maplinks?to=\(huge),\(huge)", nil), ("GET", "/v1/flyers/nearby?at=\(huge)", nil)
        ]
        for (method, path, body) in cases {
            let answer = try await served.client.request(method, path, body: body.map { Data($0.utf8) })
            #expect(
                (400..<500).contains(answer.status),
                "\(method) \(path.prefix(80)) \(body ?? ""): \(answer.status) \(answer.text.prefix(200))")
            #expect(!(try answer.error().code).isEmpty)
        }
    }
}
