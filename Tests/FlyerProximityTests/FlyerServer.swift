import Foundation
import MeridianCore
import MeridianTesting
@testable import FlyerProximity

/// A real Meridian HTTP server on 127.0.0.1 and a kernel-chosen port, with a scripted provider
/// and the `flyers` consumer on a real SpatiaLite file.
struct FlyerServer {
    let server: TestServer
    var host: PluginHost { server.host }
    var client: HTTPTestClient { server.client }

    /// Runs `body` against a started server (`units` is the configuration's `units:`, `options` extra
    /// flow-style options of the flyers entry), stops it on every path and removes the database.
    static func with(units: UnitSystem = .metric, options: String = "", _ body: (FlyerServer) async throws -> Void) async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(FlyerPlugin.registration)
        let yaml = """
            units: \(units.rawValue)
            providers:
              - {id: scripted, type: scripted}
            consumers:
              - {type: flyers\(options.isEmpty ? "" : ", " + options)}

            """
        let server = try await TestServer.start(yaml: yaml, registry: registry, store: temporary.store)
        try await server.run { try await body(FlyerServer(server: $0)) }
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
