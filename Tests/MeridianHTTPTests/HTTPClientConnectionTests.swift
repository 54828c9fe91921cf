import Foundation
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Testing

/// The HTTP/1.1 client the command line and the webhooks use, against a real server on a real socket.
@Suite("HTTP client connection")
struct HTTPClientConnectionTests {
    private static func server() async throws -> TestServer {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        return try await TestServer.start(yaml: "providers:\n  - {id: scripted, type: scripted}\n", registry: registry)
    }

    @Test("an answer's status and body, twice on one kept-alive connection")
    func answersOnOneConnection() async throws {
        let server = try await Self.server()
        let endpoint = try #require(HTTPEndpoint(url: "http://127.0.0.1:\(server.port)/"))
        let connection = HTTPClientConnection(endpoint: endpoint, timeout: 10, maximumBodyBytes: 1 << 16)
        defer { connection.close() }
        for _ in 0..<2 {
            let answer = try await connection.send("GET", "/health")
            #expect(answer.status == 200)
            #expect(answer.keepAlive)
            let health = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect(health?["status"] as? String == "ok", "\(String(decoding: answer.body, as: UTF8.self))")
        }
        let missing = try await connection.send("GET", "/no-such-path")
        #expect(missing.status == 404)
    }

    @Test("an answer longer than the limit fails the request instead of growing without bound")
    func longAnswerRefused() async throws {
        let server = try await Self.server()
        let endpoint = try #require(HTTPEndpoint(url: "http://127.0.0.1:\(server.port)"))
        let connection = HTTPClientConnection(endpoint: endpoint, timeout: 10, maximumBodyBytes: 8)
        defer { connection.close() }
        await #expect {
            _ = try await connection.send("GET", "/health")
        } throws: { error in
            guard case HTTPClientError.tooLarge(8)? = error as? HTTPClientError else { return false }
            return "\(error)".contains("larger than 8 bytes")
        }
        // Bodies are dropped, not refused, when the caller keeps none.
        let dropping = HTTPClientConnection(endpoint: endpoint, timeout: 10)
        defer { dropping.close() }
        let answer = try await dropping.send("GET", "/health")
        #expect(answer.status == 200 && answer.body.isEmpty)
    }

    @Test("a port nobody listens on is named with the system's reason")
    func refusedConnection() async throws {
        let port = try FreePort.next()
        let endpoint = try #require(HTTPEndpoint(url: "http://127.0.0.1:\(port)"))
        let connection = HTTPClientConnection(endpoint: endpoint, timeout: 10)
        await #expect {
            _ = try await connection.send("GET", "/")
        } throws: { error in
            "\(error)" == "cannot connect: 127.0.0.1 port \(port): Connection refused"
        }
    }

    @Test("endpoints of http and https URLs, IPv6 and paths; anything else is refused")
    func endpoints() throws {
        let plain = try #require(HTTPEndpoint(url: "http://example.org/hooks/in?x=1"))
        #expect(plain.host == "example.org" && plain.port == 80 && !plain.tls)
        #expect(plain.path == "/hooks/in?x=1" && plain.authority == "example.org")
        let secure = try #require(HTTPEndpoint(url: "HTTPS://[::1]:8443"))
        #expect(secure.host == "::1" && secure.port == 8443 && secure.tls)
        #expect(secure.path == "/" && secure.authority == "[::1]:8443")
        for bad in ["ftp://example.org", "example.org", "http://", "", "http:///path"] {
            #expect(HTTPEndpoint(url: bad) == nil, "\(bad)")
        }
    }
}
