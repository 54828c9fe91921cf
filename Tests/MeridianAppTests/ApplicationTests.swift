import Logging
import MeridianApp
import MeridianCore
import MeridianTesting
import ServiceLifecycle
import Testing

/// The one builder of the application, which `meridian serve` and `TestServer` both call.
@Suite("Application builder")
struct ApplicationTests {
    @Test("on port 0 the application reports the port the kernel chose and serves the API and the pages there")
    func portZero() async throws {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        var config = try ConfigLoader.parse("providers:\n  - {id: scripted, type: scripted}\n")
        config.http = HTTPSettings(host: "127.0.0.1", port: 0, token: "application-test-token")
        var logger = Logger(label: "application-test")
        logger.logLevel = .critical
        let bound = Locked<Int?>(nil)
        let application = try MeridianApplication(config: config, plugins: registry, logger: logger) { port in
            bound.withLock { $0 = port }
        }
        #expect(application.host.providers.map(\.provider.id) == ["scripted"])
        let group = ServiceGroup(
            configuration: .init(services: application.services, gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await group.run() }
        try await ManagedProcess.waitUntil(timeout: 30, "the application to listen") { bound.value != nil }
        let port = try #require(bound.value)
        #expect(port > 0)
        let client = HTTPTestClient(port: port, headers: ["Authorization": "Bearer application-test-token"])
        #expect(try await client.request("GET", "/health").status == 200)
        let page = try await client.request("GET", "/")
        #expect(
            page.status == 200 && page.headers["content-type"]?.contains("text/html") == true,
            "\(page.status) \(page.text.prefix(200))")
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
