import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// The HTTP routes of gear: `GET/POST /v1/gear`, `GET/PATCH/DELETE /v1/gear/{id}` (an id or a name) and
/// `PUT /v1/runs/{id}/gear` (`{"gear_id": 3}`, or `null` for none).
package enum GearRoutes {
    package static func add(to v1: RouterGroup<MeridianRequestContext>, store: Store) {
        let book = GearBook(store: store)
        v1.get("gear") { request, _ in
            try request.allowQuery([])
            return JSONResponse(["gear": try await book.list()])
        }
        v1.post("gear") { request, _ in
            try request.allowQuery([])
            return JSONResponse(
                try await mapped { try await book.add(try await request.decodeJSON(GearChange.self, limit: 64 << 10)) },
                status: .created)
        }
        v1.get("gear/{id}") { request, context in
            try request.allowQuery([])
            let key = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await book.item(key) })
        }
        v1.patch("gear/{id}") { request, context in
            try request.allowQuery([])
            let key = try context.parameters.decoded("id")
            return JSONResponse(
                try await mapped {
                    try await book.update(key, try await request.decodeJSON(GearChange.self, limit: 64 << 10))
                })
        }
        v1.delete("gear/{id}") { request, context in
            try request.allowQuery([])
            let key = try context.parameters.decoded("id")
            try await mapped { try await book.delete(key) }
            return Response(status: .noContent)
        }
        v1.put("runs/{id}/gear") { request, context in
            try request.allowQuery([])
            let runID = try context.parameters.decoded("id")
            let body = try await request.decodeJSON(AssignRequest.self, limit: 64 << 10)
            let gear = try await mapped { try await book.assign(body.gearId.map(String.init), runID: runID) }
            return JSONResponse(RunGearReply(runId: runID, gear: gear))
        }
    }

    /// Body of `PUT /v1/runs/{id}/gear`.
    struct AssignRequest: Decodable {
        var gearId: Int64?
    }

    /// Runs `body`, turning gear and history errors into API errors (404, 409, 400, 410).
    @discardableResult
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await RunHistoryRoutes.mapped(body)
        } catch let error as GearError {
            switch error {
            case .notFound: throw APIError.notFound(error.description, code: "gear_not_found")
            case .exists: throw APIError.conflict(error.description, code: "gear_exists")
            case .invalid: throw APIError.badRequest(error.description)
            }
        }
    }
}
