import Foundation
import Hummingbird
import MeridianCore
import Prometheus

/// `/health`, `/metrics` and the core `/v1` routes.
struct CoreRoutes {
    let host: PluginHost
    let registry: PrometheusCollectorRegistry
    let startedAt = ContinuousClock.now

    func add(to router: Router<MeridianRequestContext>, v1: RouterGroup<MeridianRequestContext>) {
        router.get("health") { _, _ in JSONResponse(health()) }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        v1.get("position") { _, _ in try position() }
        v1.get("providers") { _, _ in JSONResponse(ProvidersDocument(providers: host.providerReports(), consumers: host.consumerReports())) }
        v1.get("events") { request, _ in EventStream(bus: host.events, filter: request.query("types")).response() }
    }

    struct Health: Encodable, Sendable {
        var status: String
        var version: String
        var uptimeS: Double
        var providers: Int
        var consumers: Int
        var positionAvailable: Bool
    }

    func health() -> Health {
        Health(status: "ok", version: MeridianVersion.current, uptimeS: (ContinuousClock.now - startedAt).seconds,
               providers: host.providers.count, consumers: host.consumers.count,
               positionAvailable: host.position.latest != nil)
    }

    struct Position: Encodable, Sendable {
        var fix: FixRecord
        var ageS: Double?
        var signal: String?
    }

    func position() throws -> JSONResponse<Position> {
        guard let fix = host.position.latest else {
            throw APIError.notFound("no fix yet: no provider has reported a position; see GET /v1/providers for their state", code: "no_fix")
        }
        return JSONResponse(Position(fix: FixRecord(fix, includeProvider: true), ageS: host.position.age(),
                                     signal: fix.signalQuality?.rawValue))
    }

    struct ProvidersDocument: Encodable, Sendable {
        var providers: [ProviderReport]
        var consumers: [ConsumerReport]
    }
}
