import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// `/v1/hooks`: list, add and remove webhooks, see the dead-letter list and send it again, and ping a hook.
/// Behind the admin token like every `/v1` route. Secrets are never answered in full.
struct HookRoutes: HTTPRoutes {
    let dispatcher: HookDispatcher
    let store: Store

    /// Said with every list: a hook is the user's choice to send data off the machine.
    static let notice =
        "Each hook sends the events it takes (positions, flyers, runs) to its URL: data leaves this machine by your choice."

    struct HookList: Encodable, Sendable {
        var notice = HookRoutes.notice
        var hooks: [HookTable.Shown]
        /// Events the store refused (a full disk), held in memory until it takes writes again.
        var held: Int
    }

    struct Created: Encodable, Sendable {
        var notice = HookRoutes.notice
        var hook: HookTable.Shown
    }

    struct FailedList: Encodable, Sendable {
        var failed: [HookDeliveries.DeadLetter]
    }

    struct Count: Encodable, Sendable {
        var retried: Int
    }

    struct Ping: Encodable, Sendable {
        var eventId: String
    }

    func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        let store = self.store
        let dispatcher = self.dispatcher
        v1.get("hooks") { request, _ in
            try request.allowQuery([])
            let hooks = try await store.database.read { db in try HookTable.list(db) }
            return JSONResponse(HookList(hooks: hooks.map(HookTable.Shown.init), held: dispatcher.heldCount))
        }
        v1.post("hooks") { request, _ in
            try request.allowQuery([])
            let data = try await request.collectBody(limit: 64 << 10, mediaTypes: ["application/json"])
            let spec: HookSpec
            do {
                spec = try JSONDecoder().decode(HookSpec.self, from: data)
            } catch let error as DecodingError {
                throw APIError.badRequest(
                    "the hook is not valid: \(DecodingErrorText.describe(error)); give url, events and secret",
                    code: "invalid_hook")
            }
            if let (key, message) = spec.problem {
                throw APIError.badRequest("\(key): \(message)", code: "invalid_hook")
            }
            let entry = try await Self.mapped {
                try await store.database.write { db in
                    try HookTable.add(spec, in: db)
                    return try HookTable.list(db).first { $0.spec.id == spec.id }
                }
            }
            dispatcher.wakeAll()
            guard let entry else { throw APIError.notFound("hook '\(spec.id)' was removed meanwhile") }
            return JSONResponse(Created(hook: HookTable.Shown(entry)), status: .created)
        }
        v1.delete("hooks/{id}") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            try await Self.mapped { try await store.database.write { db in try HookTable.remove(id, in: db) } }
            return Response(status: .noContent)
        }
        v1.get("hooks/failed") { request, _ in
            try request.allowQuery(["hook"])
            let hook = request.query("hook")
            return JSONResponse(
                FailedList(
                    failed: try await store.database.read { db in try HookDeliveries.deadLetters(hookID: hook, in: db) }
                ))
        }
        v1.post("hooks/retry") { request, _ in
            try request.allowQuery(["event", "hook"])
            let (event, hook) = (request.query("event"), request.query("hook"))
            let count = try await store.database.write { db in
                try HookDeliveries.retry(eventID: event, hookID: hook, in: db)
            }
            if let event, count == 0 {
                throw APIError.notFound(
                    "event '\(event)' is not in the dead-letter list; GET /v1/hooks/failed lists it")
            }
            dispatcher.wakeAll()
            return JSONResponse(Count(retried: count))
        }
        v1.post("hooks/{id}/ping") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            guard let event = try dispatcher.ping(id) else {
                throw APIError.notFound(HookTable.Refusal.notFound(id).description)
            }
            return JSONResponse(Ping(eventId: event), status: .accepted)
        }
    }

    /// Runs `body`, answering the hook table's refusals as 404 or 409.
    private static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as HookTable.Refusal {
            switch refusal {
            case .notFound: throw APIError.notFound(refusal.description)
            case .exists, .inConfiguration: throw APIError.conflict(refusal.description)
            }
        }
    }
}
