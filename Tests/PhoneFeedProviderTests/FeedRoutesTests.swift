import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import PhoneFeedProvider

/// The feeds over a real socket, with a real SpatiaLite store and an admin token configured.
@Suite struct FeedRoutesTests {
    static let token = "admin-token"

    /// Runs `body` against a server with one `phone` provider (and `http` lines, such as `trusted_proxies`).
    func withServer(http: String = "", _ body: (TestServer) async throws -> Void) async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        var registry = PluginRegistry()
        registry.register(PhoneFeedProvider.registration)
        let server = try await TestServer.start(
            yaml: "providers:\n  - id: phones\n    type: phone\n" + http, registry: registry,
            store: temporary.store, token: Self.token)
        try await server.run(body)
    }

    func register(_ name: String, on server: TestServer) async throws -> String {
        let response = try await server.client.request(
            "POST", "/v1/devices", body: try JSONSerialization.data(withJSONObject: ["name": name]))
        #expect(response.status == 201, "\(response.text)")
        let key = try #require(try response.json()["key"] as? String)
        #expect(key.count >= 43)  // 256 bits, base64url
        return key
    }

    func client(_ server: TestServer, _ authorization: String? = nil) -> HTTPTestClient {
        HTTPTestClient(port: server.port, headers: authorization.map { ["Authorization": $0] } ?? [:])
    }

    func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test(
        "wrong device keys are held back and limited per client address like wrong tokens, apart from them: then 429 on the feeds only, counted in /metrics"
    )
    func wrongKeysAreLimited() async throws {
        try await withServer(http: "http:\n  trusted_proxies: [127.0.0.1]\n") { server in
            let key = try await register("limited", on: server)
            // A phone behind a trusted proxy at 203.0.113.9; the admin's own requests come from 127.0.0.1.
            func phone(_ key: String) -> HTTPTestClient {
                HTTPTestClient(
                    port: server.port, headers: ["Authorization": "Bearer \(key)", "X-Forwarded-For": "203.0.113.9"])
            }
            let guesser = phone("wrong-device-key-0123456789")
            for attempt in 1...10 {
                #expect(
                    try await guesser.request("POST", "/v1/feeds/overland", body: Data("{}".utf8)).status == 401,
                    "attempt \(attempt)")
            }
            // One more attempt comes back every 6 s; a slow machine may have earned one meanwhile.
            var limited = try await guesser.request("POST", "/v1/feeds/overland", body: Data("{}".utf8))
            for _ in 0..<2 where limited.status == 401 {
                limited = try await guesser.request("POST", "/v1/feeds/overland", body: Data("{}".utf8))
            }
            #expect(
                limited.status == 429 && limited.text.contains("too_many_attempts")
                    && limited.headers["retry-after"] != nil)
            #expect(try await phone(key).request("POST", "/v1/feeds/overland", body: Data("{}".utf8)).status == 429)
            // Device keys have their own allowance: the owner's API token from the same address still works.
            let owner = HTTPTestClient(
                port: server.port, headers: ["Authorization": "Bearer \(Self.token)", "X-Forwarded-For": "203.0.113.9"])
            #expect(try await owner.request("GET", "/v1/devices").status == 200)
            let metrics = try await server.client.request("GET", "/metrics").text
            #expect(
                metrics.contains(#"meridian_http_auth_failures_total{kind="device_key",result="limited"}"#),
                "\(metrics)")
        }
    }

    @Test func ownTracksPostsWithTheKeyAsPasswordAndTheKeyReadsNothing() async throws {
        try await withServer { server in
            let name = "Zoë's 📱"
            let key = try await register(name, on: server)
            let now = Int(Date().timeIntervalSince1970)
            let phone = client(server, basic(name, key))
            let body = Data(
                #"{"_type":"location","acc":8,"lat":52.520008,"lon":13.404954,"tst":\#(now),"vel":18,"batt":77,"tid":"zo"}"#
                    .utf8)
            let response = try await phone.request("POST", "/v1/feeds/owntracks", body: body)
            #expect(response.status == 200 && response.text == "[]")
            let position = try await server.client.request("GET", "/v1/position")
            #expect(position.text.contains("52.520008"), "\(position.text)")
            // The key posts fixes and nothing else.
            #expect(try await phone.request("GET", "/v1/position").status == 401)
            #expect(try await phone.request("GET", "/v1/devices").status == 401)
            #expect(try await client(server, "Bearer \(key)").request("GET", "/v1/providers").status == 401)
            // Malformed messages are answered 2xx (the app would resend them forever) but counted.
            #expect(try await phone.request("POST", "/v1/feeds/owntracks", body: Data("{oops".utf8)).status == 200)
            #expect(try await phone.request("POST", "/v1/feeds/owntracks", body: Data()).status == 200)
            let devices = try await server.client.request("GET", "/v1/devices").text
            #expect(
                devices.contains(#""rejected":1"#) && devices.contains(#""accepted":1"#)
                    && devices.contains(#""battery":0.77"#), "\(devices)")
            // Each device is its own row in /v1/providers, after the provider's.
            let providers = try #require(
                try await server.client.request("GET", "/v1/providers").json()["providers"] as? [[String: Any]])
            #expect(providers.map { $0["id"] as? String } == ["phones", "phones/\(name)"])
            // The provider's own row last sent a fix when its newest device did.
            #expect(providers[0]["last_fix_age_s"] is Double, "\(providers[0])")
            let row = providers[1]
            #expect(
                row["battery"] as? Double == 0.77 && row["last_rejection"] as? String == "the body is not JSON"
                    && row["state"] as? String == "connected")
            #expect(
                (row["counters"] as? [String: Int])?["accepted"] == 1
                    && (row["counters"] as? [String: Int])?["rejected"] == 1)
        }
    }

    @Test func wrongRotatedAndRemovedKeysAre401WithWWWAuthenticate() async throws {
        try await withServer { server in
            let key = try await register("pixel", on: server)
            let now = Int(Date().timeIntervalSince1970)
            func point(_ offset: Int) -> String {
                "/v1/feeds/osmand?id=pixel&lat=48.1&lon=11.5&timestamp=\(now - 10 + offset)"
            }
            let missing = try await client(server).request("GET", point(0))
            #expect(missing.status == 401 && missing.headers["www-authenticate"] == #"Bearer realm="meridian""#)
            // The admin token is not a device key.
            #expect(try await client(server, "Bearer \(Self.token)").request("GET", point(0)).status == 401)
            #expect(try await client(server).request("GET", point(0) + "&key=\(key)").status == 200)
            let rotated = try await server.client.request("POST", "/v1/devices/pixel/rotate")
            let newKey = try #require(try rotated.json()["key"] as? String)
            #expect(try await client(server).request("GET", point(1) + "&key=\(key)").status == 401)
            #expect(try await client(server).request("GET", point(2) + "&key=\(newKey)").status == 200)
            #expect(try await server.client.request("DELETE", "/v1/devices/pixel").status == 204)
            #expect(try await client(server).request("GET", point(3) + "&key=\(newKey)").status == 401)
            let providers = try await server.client.request("GET", "/v1/providers").text
            #expect(providers.contains(#""unauthorized":4"#), "\(providers)")
        }
    }

    @Test func overlandTakesA10000PointBatchAndRefusesBodiesOverTheCap() async throws {
        try await withServer { server in
            let key = try await register("iphone", on: server)
            let start = Date().addingTimeInterval(-20_000)
            let formatter = ISO8601DateFormatter()
            let features = (0..<10_000).map { index in
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(13.4 + Double(index) * 1e-5),52.5]},"properties":{"timestamp":"\#(formatter.string(from: start.addingTimeInterval(Double(index))))","altitude":34,"speed":1.1,"horizontal_accuracy":5,"vertical_accuracy":3,"motion":["walking"],"battery_state":"unplugged","battery_level":0.5,"wifi":""}}"#
            }
            let body = Data(#"{"locations":[\#(features.joined(separator: ","))]}"#.utf8)
            let phone = client(server, "Bearer \(key)")
            let response = try await phone.request("POST", "/v1/feeds/overland", body: body, timeout: 60)
            #expect(response.status == 200 && response.text == #"{"result":"ok"}"#)
            // Sent twice, as a phone does after a lost answer: all duplicates.
            #expect(try await phone.request("POST", "/v1/feeds/overland", body: body, timeout: 60).status == 200)
            let providers = try await server.client.request("GET", "/v1/providers").text
            #expect(
                providers.contains(#""accepted":10000"#) && providers.contains(#""duplicate":10000"#), "\(providers)")
            // 16 MiB is refused from its Content-Length, before any of it is read.
            let oversized = HTTPTestClient(
                port: server.port,
                headers: [
                    "Authorization": "Bearer \(key)", "Content-Type": "application/json",
                    "Content-Length": "\(16 << 20)"
                ])
            #expect(try await oversized.request("POST", "/v1/feeds/overland").status == 413)
        }
    }

    @Test func traccarClientJSONAndFormBodies() async throws {
        try await withServer { server in
            let key = try await register("traccar", on: server)
            let phone = client(server)
            let iso = ISO8601DateFormatter().string(from: Date())
            let json =
                #"{"location":{"timestamp":"\#(iso)","coords":{"latitude":48.2,"longitude":16.37,"accuracy":6,"speed":2,"heading":10,"altitude":180},"battery":{"level":0.4,"is_charging":false}},"device_id":"traccar"}"#
            #expect(try await phone.request("POST", "/v1/feeds/osmand?key=\(key)", body: Data(json.utf8)).status == 200)
            let form = "id=traccar&lat=48.21&lon=16.38&timestamp=\(Int(Date().timeIntervalSince1970) + 1)&speed=3"
            let response = try await phone.request(
                "POST", "/v1/feeds/osmand?key=\(key)", body: Data(form.utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(response.status == 200 && response.body.isEmpty)
            let devices = try await server.client.request("GET", "/v1/devices").text
            #expect(devices.contains(#""accepted":2"#), "\(devices)")
        }
    }
}
