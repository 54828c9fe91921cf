import FixCounter
import Foundation
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Testing

/// The example plugin of docs/architecture.md, registered as `StandardPlugins` registers the real ones, so
/// that the walkthrough stays true: it builds, receives fused fixes and serves its routes.
@Suite("The example plugin (fix-counter) in a registry")
struct ExamplePluginTests {
    private static let yaml = """
        providers:
          - {id: scripted, type: scripted}
        consumers:
          - {type: fix-counter, max_error: 50}
        """

    @Test("receives the fixes the host fans out and serves its counts; its {provider} route answers 405 with Allow")
    func receivesFixes() async throws {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(FixCounter.registration)
        let server = try await TestServer.start(yaml: Self.yaml, registry: registry)
        let counter = try #require(server.host.consumers.first?.consumer as? FixCounter)
        server.host.receive(.test(47.3769, 8.5417, accuracy: 12), from: "scripted")
        server.host.receive(.test(47.3770, 8.5417, accuracy: 80), from: "scripted")
        server.host.receive(.test(47.3771, 8.5417, accuracy: 5), from: "scripted")
        // Fixes reach a consumer in order, so two counted means the third was handled too.
        try await ManagedProcess.waitUntil(timeout: 10, "the counter to see the fixes") {
            counter.fixes(from: "scripted") == 2
        }
        let one = try await server.client.request("GET", "/v1/fix-counter/scripted")
        let all = try await server.client.request("GET", "/v1/fix-counter")
        let unknown = try await server.client.request("GET", "/v1/fix-counter/gpsd")
        let wrongMethod = try await server.client.request("DELETE", "/v1/fix-counter/scripted")
        let options = try await server.client.request("OPTIONS", "/v1/fix-counter/scripted")
        try await server.stop()
        #expect(one.status == 200)
        #expect(try one.json()["fixes"] as? Int == 2)
        #expect(String(decoding: all.body, as: UTF8.self) == #"[{"fixes":2,"provider":"scripted"}]"#)
        #expect(unknown.status == 404)
        #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET, HEAD, OPTIONS")
        #expect(options.status == 204 && options.headers["allow"] == "GET, HEAD, OPTIONS")
    }

    @Test("a bad option is a configuration error naming the key")
    func badOption() async throws {
        var registry = PluginRegistry()
        registry.register(FixCounter.registration)
        await #expect {
            try await TestServer.start(yaml: "consumers:\n  - {type: fix-counter, max_error: -1}\n", registry: registry)
        } throws: { error in
            "\(error)".contains("consumers[0].max_error") && "\(error)".contains("more than 0 metres")
        }
    }
}
