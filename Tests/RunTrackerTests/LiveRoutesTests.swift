import Foundation
import Hummingbird
import Logging
import MeridianCore
import MeridianHTTP
import MeridianStore
import MeridianTesting
import Testing
@testable import RunTracker

/// The live routes of the plugin on a real HTTP socket (in-process Hummingbird server, real SpatiaLite file).
@Suite struct LiveRoutesTests {
    struct ErrorBody: Decodable {
        struct Detail: Decodable { var code: String; var message: String }
        var error: Detail
    }

    @Test func startPauseStopDiscardAndTheirErrors() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let resources = Resources()
        resources[StoreKey.self] = folder.store
        let context = PluginContext(id: "run-tracker", logger: Logger(label: "test"), resources: resources)
        let plugin = try RunTrackerPlugin(options: RunTrackerOptions(), context: context)
        let router = Router()
        plugin.addRoutes(to: router.group("v1"))
        let port = try FreePort.next()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        let server = Task { try await app.runService() }
        defer { server.cancel() }

        func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, body: Data) {
            try await DurabilityProcessTests.request(method, path, port: port, body: body)
        }
        func errorCode(_ data: Data) -> String? { try? MeridianJSON.makeDecoder().decode(ErrorBody.self, from: data).error.code }

        _ = try await DurabilityProcessTests.poll("the server to listen") { try? await call("GET", "/v1/runs/active") }
        let none = try await call("GET", "/v1/runs/active")
        #expect(none.status == 404 && errorCode(none.body) == "no_active_run")

        let bad = try await call("POST", "/v1/runs", #"{"activity": "swim"}"#)
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("run, walk, hike, ride, other"))

        let started = try await call("POST", "/v1/runs", #"{"name": "Evening", "activity": "walk"}"#)
        #expect(started.status == 201)
        let status = try MeridianJSON.makeDecoder().decode(DurabilityProcessTests.Status.self, from: started.body)
        #expect(status.waitingForGps)
        #expect(status.run.name == "Evening" && status.run.activity == .walk && status.run.state == .tracking)
        #expect(String(decoding: started.body, as: UTF8.self).contains("\"message\":\"waiting for GPS\""))
        let id = status.run.id

        let second = try await call("POST", "/v1/runs", "")
        #expect(second.status == 409 && errorCode(second.body) == "run_active")
        let unknown = try await call("POST", "/v1/runs/nope/pause")
        #expect(unknown.status == 404 && errorCode(unknown.body) == "run_not_found")

        for _ in 0..<2 {
            let paused = try await call("POST", "/v1/runs/\(id)/pause")
            #expect(paused.status == 200)
            #expect(try MeridianJSON.makeDecoder().decode(DurabilityProcessTests.Status.self, from: paused.body).run.state == .paused)
        }
        let stopped = try await call("POST", "/v1/runs/\(id)/stop")
        #expect(stopped.status == 200)
        let stopText = String(decoding: stopped.body, as: UTF8.self)
        #expect(stopText.contains("\"saved\":false") && stopText.contains("too short"))
        let afterStop = try await call("POST", "/v1/runs/\(id)/pause")
        #expect(afterStop.status == 409 && errorCode(afterStop.body) == "run_not_active")
        #expect(try await call("POST", "/v1/runs/\(id)/discard").status == 204)
        #expect(try await call("POST", "/v1/runs/\(id)/discard").status == 404)
    }
}
