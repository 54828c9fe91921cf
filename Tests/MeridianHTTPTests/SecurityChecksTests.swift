import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import MeridianHTTP

@Suite("Loopback decision, token comparison and metrics text")
struct SecurityChecksTests {
    @Test("loopback is decided by parsing and resolving the address, not by its prefix")
    func loopbackByAddress() throws {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"] {
            #expect(HTTPSettings(host: host, port: 8080).isLoopback, "\(host)")
            try MeridianServer.validate(HTTPSettings(host: host, port: 8080))
        }
        // `.invalid` never resolves (RFC 6761): a name that merely starts like a loopback address.
        for host in ["127.0.0.1.invalid", "127.evil.invalid", "0.0.0.0", "::", "128.0.0.1", "", "10.0.0.1"] {
            #expect(!HTTPSettings(host: host, port: 8080).isLoopback, "\(host)")
            #expect(throws: ConfigError.self, "\(host)") {
                try MeridianServer.validate(HTTPSettings(host: host, port: 8080))
            }
        }
    }

    @Test("the token comparison keeps the whole length difference")
    func constantTimeComparison() {
        let token = Array("abcd".utf8)
        #expect(BearerAuthMiddleware.constantTimeEqual(token, token))
        #expect(!BearerAuthMiddleware.constantTimeEqual(token, Array("abce".utf8)))
        #expect(!BearerAuthMiddleware.constantTimeEqual(token, Array("abc".utf8)))
        // 256 more bytes of zeros: a length difference that is a multiple of 256.
        #expect(!BearerAuthMiddleware.constantTimeEqual(token, token + [UInt8](repeating: 0, count: 256)))
        #expect(!BearerAuthMiddleware.constantTimeEqual([], [UInt8](repeating: 0, count: 512)))
    }

    @Test("/metrics has a # HELP line for every metric family")
    func metricsHelp() async throws {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        let server = try await TestServer.start(
            yaml: "providers:\n  - {id: scripted, type: scripted}\n", registry: registry)
        server.host.receive(.test(1, 2), from: "scripted")
        _ = try await server.client.request("GET", "/health")
        let text = try await server.client.request("GET", "/metrics").text
        try await server.stop()
        let lines = text.split(separator: "\n")
        let families = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        #expect(families.count >= 3, "\(text)")
        for family in families {
            let help = lines.first { $0.hasPrefix("# HELP \(family) ") }
            #expect(help != nil && help!.count > "# HELP \(family) ".count + 10, "no # HELP for \(family)")
        }
    }
}
