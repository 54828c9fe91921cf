import Foundation
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Testing

/// Sign-in, session cookies, the cross-site guard and the pages' security headers, over a real socket on the full
/// application as `meridian serve` builds it (web shell included).
@Suite("Browser access: sign-in, sessions, cross-site requests")
struct BrowserAccessTests {
    static func start(token: String? = nil, yaml: String = "", leaflet: String = "/usr/share/javascript/leaflet")
        async throws -> TestServer
    {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        return try await TestServer.start(
            yaml: "providers:\n  - {id: scripted, type: scripted}\n" + yaml, registry: registry,
            token: token, leafletDirectory: leaflet)
    }

    static func client(_ server: TestServer, _ headers: [String: String]) -> HTTPTestClient {
        var client = server.client
        client.headers.merge(headers) { _, new in new }
        return client
    }

    @Test("without a token, requests naming another host and state changes from other sites are refused")
    func crossSiteWithoutToken() async throws {
        let server = try await Self.start()
        try await server.run { server in
            let own = "http://127.0.0.1:\(server.port)"
            for headers in [
                ["Origin": "http://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
                ["Origin": own, "Sec-Fetch-Site": "same-site"]
            ] {
                let answer = try await Self.client(server, headers).request("POST", "/v1/position")
                #expect(answer.status == 403, "\(headers)")
                #expect(answer.text.contains("cross_site_request"))
            }
            // The server's own pages, and clients that are not browsers, get through to the route (405: GET only).
            for headers in [["Origin": own, "Sec-Fetch-Site": "same-origin"], [:]] {
                #expect(try await Self.client(server, headers).request("POST", "/v1/position").status == 405)
            }
            // DNS rebinding: a page whose own name now points at 127.0.0.1 still names itself in Host.
            let rebound = try await Self.client(server, ["Host": "evil.example:\(server.port)"]).request(
                "GET", "/v1/providers")
            #expect(rebound.status == 403)
            for host in ["localhost:\(server.port)", "127.0.0.1", "[::1]:\(server.port)"] {
                #expect(
                    try await Self.client(server, ["Host": host]).request("GET", "/v1/providers").status == 200,
                    "\(host)")
            }
        }
    }

    @Test(
        "with a token, pages send a browser to sign in; the sign-in form gives an HttpOnly SameSite=Strict cookie the API accepts"
    )
    func signIn() async throws {
        let server = try await Self.start(token: "s3cret")
        try await server.run { server in
            let anonymous = HTTPTestClient(port: server.port)
            let page = try await anonymous.request("GET", "/runs?q=a%20b")
            #expect(page.status == 303)
            #expect(page.headers["location"] == "/signin?next=%2Fruns%3Fq%3Da%2520b")
            #expect(try await anonymous.request("GET", "/v1/providers").status == 401)
            #expect(try await anonymous.request("GET", "/signin").status == 200)
            #expect(try await anonymous.request("GET", "/assets/app.css").status == 200)

            let wrong = try await anonymous.request(
                "POST", "/signin", body: Data("token=nope&next=%2Fruns".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(wrong.status == 401)
            #expect(wrong.headers["set-cookie"] == nil)
            #expect(wrong.text.contains("not this server"))

            let right = try await anonymous.request(
                "POST", "/signin", body: Data("token=s3cret&next=%2Fruns".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(right.status == 303)
            #expect(right.headers["location"] == "/runs")
            let cookie = try #require(right.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let session = String(cookie.prefix { $0 != ";" })
            let browser = HTTPTestClient(port: server.port, headers: ["Cookie": "other=1; \(session)"])
            #expect(try await browser.request("GET", "/v1/providers").status == 200)
            #expect(try await browser.request("GET", "/").status == 200)
            // A cookie is not a token: a state change from another site is refused before it counts.
            let forged = try await Self.client(server, ["Cookie": session, "Origin": "http://evil.example"]).request(
                "POST", "/signout")
            #expect(forged.status == 403)

            let signOut = try await browser.request("POST", "/signout")
            #expect(signOut.status == 303)
            #expect(signOut.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(try await browser.request("GET", "/v1/providers").status == 401)
            #expect(
                try await HTTPTestClient(port: server.port, headers: ["Cookie": "meridian_session=guessed"]).request(
                    "GET", "/v1/providers"
                ).status == 401)
        }
    }

    @Test("an open redirect after sign-in is not possible")
    func signInStaysHere() async throws {
        let server = try await Self.start(token: "s3cret")
        try await server.run { server in
            let answer = try await HTTPTestClient(port: server.port).request(
                "POST", "/signin", body: Data("token=s3cret&next=%2F%2Fevil.example".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(answer.headers["location"] == "/")
        }
    }

    @Test(
        "pages carry a Content-Security-Policy with only the service's own scripts and styles, and the tile host when set"
    )
    func securityHeaders() async throws {
        let plain = try await Self.start()
        try await plain.run { server in
            let page = try await server.client.request("GET", "/")
            #expect(page.status == 200)
            let policy = try #require(page.headers["content-security-policy"])
            #expect(
                policy.contains("script-src 'self'") && policy.contains("style-src 'self'")
                    && policy.contains("default-src 'none'"))
            #expect(!policy.contains("unsafe") && !policy.contains("https:"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        }
        let tiles = try await Self.start(
            yaml: "web:\n  tile_url: https://{s}.tile.example.org/{z}/{x}/{y}.png\n  tile_attribution: © Example\n")
        try await tiles.run { server in
            let page = try await server.client.request("GET", "/")
            #expect(
                page.headers["content-security-policy"]?.contains("img-src 'self' data: https://*.tile.example.org")
                    == true)
            #expect(page.text.contains("it sees the area you view"))
        }
    }

    @Test("Leaflet is served from the system under /assets/leaflet/, and pages do without it when it is missing")
    func leaflet() async throws {
        let installed = FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js")
        let server = try await Self.start()
        try await server.run { server in
            let script = try await server.client.request("GET", "/assets/leaflet/leaflet.js")
            #expect(script.status == (installed ? 200 : 404))
            if installed {
                #expect(script.headers["content-type"]?.hasPrefix("text/javascript") == true)
                #expect(try await server.client.request("GET", "/").text.contains("/assets/leaflet/leaflet.js"))
                let zipped = try await Self.client(server, ["Accept-Encoding": "gzip"]).request(
                    "GET", "/assets/leaflet/leaflet.css")
                #expect(zipped.headers["content-encoding"] == "gzip")
            }
            #expect(try await server.client.request("GET", "/assets/leaflet/../../../etc/passwd").status == 404)
        }
        let missing = try await Self.start(leaflet: "/nonexistent/leaflet")
        try await missing.run { server in
            let script = try await server.client.request("GET", "/assets/leaflet/leaflet.js")
            let page = try await server.client.request("GET", "/")
            #expect(script.status == 404)
            #expect(!page.text.contains("leaflet"))
        }
    }

    @Test("the now page says 'waiting for GPS' before a fix, then shows the fix, its signal and the receivers")
    func nowPage() async throws {
        let server = try await Self.start()
        try await server.run { server in
            let before = try await server.client.request("GET", "/")
            #expect(before.text.contains("Waiting for GPS"))
            #expect(before.text.contains("scripted"))
            server.host.receive(Fix.test(52.52, 13.405, accuracy: 4), from: "scripted")
            let fragment = try await server.client.request("GET", "/now/position")
            #expect(fragment.text.contains("Signal good") && fragment.text.contains("52.52000, 13.40500"))
            #expect(fragment.text.contains("data-refresh=\"/now/position\""))
            #expect(!fragment.text.contains("<html"))
        }
    }

    @Test(
        "the now page shows no signal for a fix 63 s old, or from a provider that finished; a fresh fix shows it again")
    func staleSignal() async throws {
        let server = try await Self.start()
        try await server.run { server in
            server.host.receive(Fix.test(52.52, 13.405, accuracy: 4), from: "scripted", at: .now - .seconds(63))
            let old = try await server.client.request("GET", "/now/position").text
            #expect(!old.contains("Signal good") && old.contains("No signal (last fix 63 s ago)"), "\(old)")
            #expect(!old.contains("Waiting for GPS"))

            server.host.receive(Fix.test(52.52, 13.405, accuracy: 4), from: "scripted")
            #expect(try await server.client.request("GET", "/now/position").text.contains("Signal good"))

            let provider = try #require(server.host.providers.first { $0.id == "scripted" })
            provider.health.update(.finished)
            let finished = try await server.client.request("GET", "/now/position").text
            #expect(
                !finished.contains("Signal good") && finished.contains("No signal (scripted finished, last fix"),
                "\(finished)")
        }
    }
}
