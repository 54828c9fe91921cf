import Foundation
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Testing

/// A server with one scripted provider, as the core routes need nothing else.
private enum RunningServer {
    static func start(token: String? = nil) async throws -> TestServer {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        return try await TestServer.start(
            yaml: "providers:\n  - {id: scripted, type: scripted}\n", registry: registry, token: token)
    }
}

@Suite("HTTP core routes over a real socket")
struct CoreRoutesTests {
    @Test("health answers with status and version")
    func health() async throws {
        let server = try await RunningServer.start()
        let response = try await server.client.request("GET", "/health")
        try await server.stop()
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        let body = try response.json()
        #expect(body["status"] as? String == "ok")
        #expect(body["version"] as? String == MeridianVersion.current)
        #expect(body["position_available"] as? Bool == false)
    }

    @Test("position: 404 no_fix before the first fix, then the latest fused fix")
    func position() async throws {
        let server = try await RunningServer.start()
        let before = try await server.client.request("GET", "/v1/position")
        server.host.receive(.test(47.3769, 8.5417, speed: 2.5, accuracy: 12), from: "scripted")
        let after = try await server.client.request("GET", "/v1/position")
        try await server.stop()
        #expect(before.status == 404)
        let error = try #require(try before.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "no_fix")
        #expect((error["message"] as? String)?.contains("/v1/providers") == true)
        #expect(after.status == 200)
        let fix = try #require(try after.json()["fix"] as? [String: Any])
        #expect(fix["lat"] as? Double == 47.3769 && fix["lon"] as? Double == 8.5417)
        #expect(fix["provider"] as? String == "scripted")
        #expect(try after.json()["signal"] as? String == "fair")
    }

    @Test("providers report state, activity and counters")
    func providers() async throws {
        let server = try await RunningServer.start()
        try await ManagedProcess.waitUntil(timeout: 5, "provider start") {
            server.host.providerReports().first?.state == .connected
        }
        server.host.receive(.test(1, 2), from: "scripted")
        let response = try await server.client.request("GET", "/v1/providers")
        try await server.stop()
        let providers = try #require(try response.json()["providers"] as? [[String: Any]])
        #expect(providers.count == 1)
        #expect(providers[0]["id"] as? String == "scripted")
        #expect(providers[0]["state"] as? String == "connected")
        #expect(providers[0]["active"] as? Bool == true)
        #expect(providers[0]["fixes_received"] as? Int == 1)
        #expect(providers[0]["last_fix_age_s"] as? Double != nil)
    }

    @Test("metrics expose fixes per provider and request counts in Prometheus text")
    func metrics() async throws {
        let server = try await RunningServer.start()
        server.host.receive(.test(1, 2), from: "scripted")
        _ = try await server.client.request("GET", "/health")
        let response = try await server.client.request("GET", "/metrics")
        try await server.stop()
        #expect(response.status == 200)
        #expect(response.text.contains(#"meridian_fixes_received_total{provider="scripted"} 1"#))
        #expect(response.text.contains(#"meridian_http_requests_total{"#))
        #expect(response.text.contains(#"route="/health""#))
        #expect(response.text.contains("meridian_http_request_duration_seconds"))
    }

    @Test("request counts add up per method, route and status across requests")
    func requestCounts() async throws {
        let server = try await RunningServer.start()
        for _ in 0..<3 { _ = try await server.client.request("GET", "/health") }
        _ = try await server.client.request("GET", "/v1/position")
        _ = try await server.client.request("GET", "/v1/position")
        let response = try await server.client.request("GET", "/metrics")
        try await server.stop()
        let lines = response.text.split(separator: "\n").filter { $0.hasPrefix("meridian_http_requests_total{") }
        func count(_ route: String, _ status: String) -> String? {
            lines.first { $0.contains(#"route="\#(route)""#) && $0.contains(#"status="\#(status)""#) }?.split(
                separator: " "
            ).last.map(String.init)
        }
        #expect(count("/health", "200") == "3")
        #expect(count("/v1/position", "404") == "2")
    }

    @Test("events stream fixes as Server-Sent Events")
    func events() async throws {
        let server = try await RunningServer.start()
        async let text = server.client.stream("/v1/events?types=fix") {
            $0.contains("event: fix") && $0.contains("52.52")
        }
        try await ManagedProcess.waitUntil(timeout: 5, "the subscription") { server.host.events.subscriberCount == 1 }
        server.host.events.publish("run.state", json: "{\"state\":\"tracking\"}")
        server.host.receive(.test(52.52, 13.405), from: "scripted")
        let received = try await text
        try await server.stop()
        #expect(
            received.contains("content-type: text/event-stream") || received.contains("Content-Type: text/event-stream")
        )
        #expect(received.contains("event: fix\ndata: {"))
        #expect(received.contains("\"lat\":52.52"))
        #expect(!received.contains("run.state"), "filtered out by ?types=fix")
    }

    @Test("unknown routes get a JSON 404")
    func unknownRoute() async throws {
        let server = try await RunningServer.start()
        let response = try await server.client.request("GET", "/v1/nowhere")
        try await server.stop()
        #expect(response.status == 404)
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found")
    }

    @Test("a known path with the wrong method gets a JSON 405 naming the allowed methods")
    func wrongMethod() async throws {
        let server = try await RunningServer.start()
        let response = try await server.client.request("POST", "/v1/position")
        let health = try await server.client.request("DELETE", "/health")
        try await server.stop()
        #expect(response.status == 405 && health.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD, OPTIONS")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "method_not_allowed")
        #expect((error["message"] as? String)?.contains("use GET, HEAD, OPTIONS") == true)
    }

    @Test("with a token every request but /health needs the bearer header")
    func bearerToken() async throws {
        let server = try await RunningServer.start(token: "s3cret")
        let anonymous = HTTPTestClient(port: server.port)
        let denied = try await anonymous.request("GET", "/v1/providers")
        let wrong = try await HTTPTestClient(port: server.port, headers: ["Authorization": "Bearer s3cre"]).request(
            "GET", "/v1/providers")
        let allowed = try await server.client.request("GET", "/v1/providers")
        try await server.stop()
        #expect(denied.status == 401 && wrong.status == 401)
        #expect((try denied.json()["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        #expect(allowed.status == 200)
    }

    @Test("binding a non-loopback address without a token is refused")
    func nonLoopbackNeedsToken() throws {
        #expect(throws: ConfigError.self) { try MeridianServer.validate(HTTPSettings(host: "0.0.0.0", port: 8080)) }
        try MeridianServer.validate(HTTPSettings(host: "0.0.0.0", port: 8080, token: "t"))
        try MeridianServer.validate(HTTPSettings(host: "127.0.0.1", port: 8080))
    }

    @Test("graceful shutdown ends open event streams")
    func shutdownEndsStreams() async throws {
        let server = try await RunningServer.start()
        async let text = server.client.stream("/v1/events", timeout: 10) { _ in false }
        try await ManagedProcess.waitUntil(timeout: 5, "the subscription") { server.host.events.subscriberCount == 1 }
        try await server.stop()
        let received = try await text
        #expect(received.contains("meridian event stream"))
    }
}

@Suite("HEAD on the event stream")
struct EventStreamHeadTests {
    @Test("HEAD /v1/events answers the headers without subscribing to the bus")
    func headDoesNotSubscribe() async throws {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        let server = try await TestServer.start(
            yaml: "providers:\n  - {id: scripted, type: scripted}\n", registry: registry)
        let head = try await server.client.request("HEAD", "/v1/events")
        let subscribers = server.host.events.subscriberCount
        try await server.stop()
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(subscribers == 0)
    }
}
