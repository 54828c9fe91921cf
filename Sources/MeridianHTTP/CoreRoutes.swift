import Foundation
import Hummingbird
import MeridianCore
import Prometheus

/// `/health`, `/metrics` and the core `/v1` routes.
struct CoreRoutes {
    let host: PluginHost
    let registry: PrometheusCollectorRegistry
    /// The bearer token, if one is configured: `/health` shows its details only to requests carrying it.
    let token: String?
    let startedAt = ContinuousClock.now

    func add(to router: Router<MeridianRequestContext>, v1: RouterGroup<MeridianRequestContext>) {
        router.get("health") { request, _ in
            try request.allowQuery([])
            return JSONResponse(
                health(detailed: token.map { BearerAuthMiddleware.accepts(request, token: $0) } ?? true))
        }
        router.get("metrics") { request, _ in
            try request.allowQuery([])
            let text = MeridianMetric.withHelp(String(decoding: registry.emitToBuffer(), as: UTF8.self))
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        v1.get("position") { request, _ in
            try request.allowQuery([])
            return try position()
        }
        v1.get("providers") { request, _ in
            try request.allowQuery([])
            return JSONResponse(ProvidersDocument(providers: host.providerReports(), consumers: host.consumerReports()))
        }
        v1.get("events") { request, _ in
            try request.allowQuery(["types"])
            return EventStream(bus: host.events, filter: request.query("types")).response()
        }
    }

    struct Health: Encodable, Sendable {
        var status: String
        var version: String
        var uptimeS: Double
        var providers: Int?
        var consumers: Int?
        var positionAvailable: Bool?
        /// Each database-backed consumer's database, by consumer id.
        var databases: [String: DatabaseState]?
        /// What consumers hold in memory because the store refused their writes, by consumer id.
        var pendingWrites: [String: PendingWrites]?
    }

    /// Status (`damaged` when the host's store or a consumer's database was found damaged, `writes_pending` while
    /// a consumer holds data the store refused), version and uptime; with `detailed`, also the plugin counts,
    /// whether a position is known, and what waits to be written.
    func health(detailed: Bool) -> Health {
        let databases = host.consumerReports().compactMap { report in report.database.map { (report.id, $0) } }
        let pending = host.consumers.compactMap { slot in
            (slot.consumer as? any HoldsPendingWrites)?.pendingWrites.map { (slot.id, $0) }
        }
        let storeDamaged = host.resources[StoreConditionKey.self]?.damageDescription != nil
        let status =
            storeDamaged || databases.contains { $0.1.state == "damaged" }
            ? "damaged" : pending.isEmpty ? "ok" : "writes_pending"
        var health = Health(
            status: status, version: MeridianVersion.current, uptimeS: (ContinuousClock.now - startedAt).seconds)
        if detailed {
            health.providers = host.providers.count
            health.consumers = host.consumers.count
            health.positionAvailable = host.position.latest != nil
            if !databases.isEmpty { health.databases = Dictionary(databases, uniquingKeysWith: { first, _ in first }) }
            if !pending.isEmpty { health.pendingWrites = Dictionary(pending, uniquingKeysWith: { first, _ in first }) }
        }
        return health
    }

    struct Position: Encodable, Sendable {
        var fix: FixRecord
        var ageS: Double?
        var signal: String?
    }

    func position() throws -> JSONResponse<Position> {
        guard let fix = host.position.latest else {
            throw APIError.notFound(
                "no fix yet: no provider has reported a position; see GET /v1/providers for their state", code: "no_fix"
            )
        }
        return JSONResponse(
            Position(
                fix: FixRecord(fix, includeProvider: true), ageS: host.position.age(),
                signal: fix.signalQuality?.rawValue))
    }

    struct ProvidersDocument: Encodable, Sendable {
        var providers: [ProviderReport]
        var consumers: [ConsumerReport]
    }
}
