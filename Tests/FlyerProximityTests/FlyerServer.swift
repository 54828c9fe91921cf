import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting

@testable import FlyerProximity

/// A real Meridian HTTP server on 127.0.0.1 and a kernel-chosen port, with a scripted provider
/// and the `flyers` consumer on a real SpatiaLite file or a real PostGIS database.
struct FlyerServer {
    let server: TestServer
    var host: PluginHost { server.host }
    var client: HTTPTestClient { server.client }

    /// The flyers consumer.
    var plugin: FlyerPlugin? {
        host.consumers.lazy.compactMap { $0.consumer as? FlyerPlugin }.first
    }

    /// Runs `body` against a started server on a new database of `backend` (`units` is the
    /// configuration's `units:`, `options` extra flow-style options of the flyers entry), stops it on
    /// every path and removes the database.
    static func with(
        _ backend: FlyerBackend = .spatialite, units: UnitSystem = .metric, options: String = "",
        _ body: (FlyerServer) async throws -> Void
    ) async throws {
        try await with(backend, units: units, options: options) { server, _ in try await body(server) }
    }

    /// As above, and gives `body` the database too (to write to it as another program would).
    static func with(
        _ backend: FlyerBackend, units: UnitSystem = .metric, options: String = "",
        _ body: (FlyerServer, FlyerDatabase) async throws -> Void
    ) async throws {
        let database = try backend.makeDatabase()
        defer { database.remove() }
        try await with(database, units: units, options: options) { server in try await body(server, database) }
    }

    /// Runs `body` against a started server on `database` (see above); waits until its cache is warm.
    static func with(
        _ database: FlyerDatabase, units: UnitSystem = .metric, options: String = "", busyTimeout: Double? = nil,
        _ body: (FlyerServer) async throws -> Void
    ) async throws {
        let hostStore = try database.hostStore ?? TemporaryStore()
        defer { if database.hostStore == nil { hostStore.remove() } }
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(FlyerPlugin.registration)
        let entries = [database.consumerOptions, options].filter { !$0.isEmpty }
        let yaml = """
            units: \(units.rawValue)
            providers:
              - {id: scripted, type: scripted}
            consumers:
              - {type: flyers\(entries.map { ", " + $0 }.joined())}

            """
        let store =
            try busyTimeout.map { try Store.open(path: hostStore.store.path, busyTimeout: $0) } ?? hostStore.store
        let server = try await TestServer.start(yaml: yaml, registry: registry, store: store)
        try await server.run { server in
            let flyers = FlyerServer(server: server)
            try await flyers.waitUntilWarm()
            try await body(flyers)
        }
    }

    /// Waits until the flyers' cache follows the database.
    func waitUntilWarm(timeout: Double = 30) async throws {
        try await ManagedProcess.waitUntil(timeout: timeout, "the flyer cache to be warm") {
            plugin?.catalog.report.cache == "warm" && plugin?.catalog.report.state == "connected"
        }
    }

    /// Sends `body` (JSON text) and returns the response.
    func send(_ method: String, _ path: String, _ body: String? = nil) async throws -> HTTPTestClient.Response {
        try await client.request(method, path, body: body.map { Data($0.utf8) })
    }

    /// A fix from the scripted provider, as a receiver would deliver it.
    func move(to coordinate: Coordinate, accuracy: Double = 5) {
        host.receive(Fix.test(coordinate.latitude, coordinate.longitude, accuracy: accuracy), from: "scripted")
    }
}

extension HTTPTestClient.Response {
    /// The `items` of a search or list answer.
    func items() throws -> [[String: Any]] {
        try json()["items"] as? [[String: Any]] ?? []
    }

    /// `error.code` and `error.message` of an error answer.
    func error() throws -> (code: String, message: String) {
        let error = try json()["error"] as? [String: Any]
        return (error?["code"] as? String ?? "", error?["message"] as? String ?? "")
    }
}
