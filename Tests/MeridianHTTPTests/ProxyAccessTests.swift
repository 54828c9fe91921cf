import Foundation
import Hummingbird
import MeridianCore
import MeridianTesting
import Prometheus
import Testing

@testable import MeridianHTTP

/// Nothing is open without a credential behind a proxy: trusted proxies' forwarded headers, `Secure` cookies, sign-in
/// links and the limit on wrong tokens, over a real socket on the application `meridian serve` builds.
@Suite("Proxy access: trusted proxies, Secure cookies, sign-in links, wrong-token limits")
struct ProxyAccessTests {
    static let token = "proxy-access-token-0123456789"

    static func start(http: String = "") async throws -> TestServer {
        try await BrowserAccessTests.start(token: token, yaml: http.isEmpty ? "" : "http:\n" + http)
    }

    @Test("addresses and CIDR ranges match IPv4, IPv6 and IPv4-mapped peers; anything else does not parse")
    func addressRanges() throws {
        let local = try #require(AddressRange("127.0.0.1"))
        #expect(local.contains("127.0.0.1") && local.contains("::ffff:127.0.0.1") && !local.contains("127.0.0.2"))
        let private10 = try #require(AddressRange("10.0.0.0/8"))
        #expect(private10.contains("10.200.3.4") && !private10.contains("11.0.0.1") && !private10.contains("fd00::1"))
        let ula = try #require(AddressRange("fd00::/8"))
        #expect(ula.contains("fd12::1") && ula.contains("[fd12::1]:443") && !ula.contains("fe80::1"))
        for text in ["localhost", "10.0.0.0/33", "::/129", "10.0.0.0/x", ""] {
            #expect(AddressRange(text) == nil, "\(text)")
        }
        #expect(throws: ConfigError.self) {
            var settings = HTTPSettings()
            settings.trustedProxies = ["127.0.0.1", "proxy.example"]
            try MeridianServer.validate(settings)
        }
    }

    @Test(
        "forwarded headers count only from a trusted peer; the client is the right-most address no trusted proxy holds")
    func forwardedHeaders() {
        let resolver = ForwardedClient(
            trusted: [AddressRange("127.0.0.1")!, AddressRange("10.0.0.0/8")!], directTLS: false)
        let forwarded: HTTPFields = [.xForwardedFor: "198.51.100.9, 203.0.113.7, 10.1.1.1", .xForwardedProto: "https"]
        #expect(describe(resolver.resolve(peer: "127.0.0.1", headers: forwarded)) == "203.0.113.7 true")
        #expect(describe(resolver.resolve(peer: "192.0.2.1", headers: forwarded)) == "192.0.2.1 false")
        let rfc7239: HTTPFields = [.forwarded: #"for="[2001:db8::7]:4711";proto=https, for=10.0.0.2"#]
        #expect(describe(resolver.resolve(peer: "10.9.9.9", headers: rfc7239)) == "2001:db8::7 true")
        #expect(describe(resolver.resolve(peer: "127.0.0.1", headers: [:])) == "127.0.0.1 false")
        let direct = ForwardedClient(trusted: [], directTLS: true)
        #expect(describe(direct.resolve(peer: "127.0.0.1", headers: [.xForwardedProto: "http"])) == "127.0.0.1 true")
    }

    func describe(_ client: (address: String, secure: Bool)) -> String {
        "\(client.address) \(client.secure)"
    }

    @Test("no token and no http.open_loopback: the application is not built")
    func nothingOpenByDefault() async throws {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        let config = try ConfigLoader.parse("providers:\n  - {id: scripted, type: scripted}\n")
        let host = try PluginHost(config: config, registry: registry, logger: .init(label: "test"))
        let prometheus = PrometheusCollectorRegistry()
        #expect(throws: ConfigError.self) {
            _ = try MeridianServer.makeApplication(
                host: host, settings: HTTPSettings(port: 0), registry: prometheus,
                metrics: PrometheusMetricsFactory(registry: prometheus), logger: .init(label: "test"))
        }
    }

    @Test("the session cookie is Secure when a trusted proxy says the request came over HTTPS, never on a header alone")
    func secureCookie() async throws {
        let form = Data("token=\(Self.token)&next=%2F".utf8)
        for (http, secure) in [("  trusted_proxies: [127.0.0.1]\n", true), ("", false)] {
            let server = try await Self.start(http: http)
            try await server.run { server in
                let client = HTTPTestClient(port: server.port, headers: ["X-Forwarded-Proto": "https"])
                let answer = try await client.request(
                    "POST", "/signin", body: form, contentType: "application/x-www-form-urlencoded")
                let cookie = try #require(answer.headers["set-cookie"])
                #expect(cookie.hasSuffix("; Secure") == secure, "\(http): \(cookie)")
                let link = try await client.request("GET", "/?token=\(Self.token)")
                #expect((link.headers["set-cookie"] ?? "").hasSuffix("; Secure") == secure)
            }
        }
    }

    @Test(
        "a sign-in link sets the session cookie and leads to the page without the token; a wrong one leads to sign-in")
    func signInLink() async throws {
        let server = try await Self.start()
        try await server.run { server in
            let anonymous = HTTPTestClient(port: server.port)
            let right = try await anonymous.request("GET", "/runs?token=\(Self.token)&q=park")
            #expect(right.status == 303)
            #expect(right.headers["location"] == "/runs?q=park")
            let cookie = try #require(right.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let session = String(cookie.prefix { $0 != ";" })
            #expect(
                try await HTTPTestClient(port: server.port, headers: ["Cookie": session]).request(
                    "GET", "/v1/providers"
                ).status == 200)
            let wrong = try await anonymous.request("GET", "/?token=not-the-token-at-all")
            #expect(wrong.status == 303)
            #expect(wrong.headers["location"] == "/signin?next=%2F")
            #expect(wrong.headers["set-cookie"] == nil)
            // The API takes no token in the query: only the header or a session.
            #expect(try await anonymous.request("GET", "/v1/providers?token=\(Self.token)").status != 200)
        }
    }

    @Test(
        "wrong tokens are limited per client: the 11th is a 429 with Retry-After, the right token too; other clients are not; /metrics counts them"
    )
    func wrongTokensLimited() async throws {
        let server = try await Self.start(http: "  trusted_proxies: [127.0.0.1]\n")
        try await server.run { server in
            func client(_ address: String, token: String) -> HTTPTestClient {
                HTTPTestClient(
                    port: server.port, headers: ["X-Forwarded-For": address, "Authorization": "Bearer \(token)"])
            }
            let guesser = client("203.0.113.7", token: "wrong-token-0123456789")
            for attempt in 1...Int(CredentialAttempts.burst) {
                #expect(try await guesser.request("GET", "/v1/position").status == 401, "attempt \(attempt)")
            }
            // One more attempt comes back every `interval` seconds; a slow machine may have earned one meanwhile.
            var limited = try await guesser.request("GET", "/v1/position")
            var extra = 0
            while limited.status == 401 && extra < 2 {
                extra += 1
                limited = try await guesser.request("GET", "/v1/position")
            }
            #expect(limited.status == 429)
            #expect(limited.text.contains("too_many_attempts"))
            #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
            #expect(try await client("203.0.113.7", token: Self.token).request("GET", "/v1/providers").status == 429)
            let form = try await HTTPTestClient(port: server.port, headers: ["X-Forwarded-For": "203.0.113.7"])
                .request(
                    "POST", "/signin", body: Data("token=\(Self.token)".utf8),
                    contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 429)
            #expect(try await client("198.51.100.2", token: Self.token).request("GET", "/v1/providers").status == 200)
            let metrics = try await client("198.51.100.2", token: Self.token).request("GET", "/metrics").text
            #expect(
                metrics.contains(#"meridian_http_auth_failures_total{kind="bearer",result="refused"} \#(10 + extra)"#),
                "\(metrics)")
            #expect(metrics.contains(#"meridian_http_auth_failures_total{kind="bearer",result="limited"} 2"#))
            #expect(metrics.contains(#"meridian_http_auth_failures_total{kind="signin",result="limited"} 1"#))
        }
    }

    @Test("the sign-in form is limited like the API: many parallel wrong tokens, then 429")
    func signInFormLimited() async throws {
        let server = try await Self.start()
        try await server.run { server in
            let anonymous = HTTPTestClient(port: server.port)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await anonymous.request(
                            "POST", "/signin", body: Data("token=guess-0123456789abcdef".utf8),
                            contentType: "application/x-www-form-urlencoded"
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == Int(CredentialAttempts.burst))
            #expect(statuses.filter { $0 == 429 }.count == 30 - Int(CredentialAttempts.burst))
        }
    }
}
