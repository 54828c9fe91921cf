import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// `GET /v1/goals` (every goal with its progress in the current period), `POST /v1/goals`, `DELETE /v1/goals/{id}`.
package enum GoalRoutes {
    struct GoalList: Encodable, Sendable {
        var goals: [GoalProgress]
    }

    package static func add(
        to v1: RouterGroup<MeridianRequestContext>, store: Store, units: UnitSystem, timeZone: TimeZone
    ) {
        let database = store.database
        v1.get("goals") { request, _ in
            try request.allowQuery([])
            return JSONResponse(
                GoalList(
                    goals: try await database.read { db in
                        try GoalBook.progress(now: Date(), timeZone: timeZone, units: units, in: db)
                    }))
        }
        v1.post("goals") { request, _ in
            try request.allowQuery([])
            let goal = try await ProgressRoutes.mapped {
                let body = try await request.decodeJSON(GoalRequest.self, limit: 16 << 10)
                return try await database.write { db in try GoalBook.add(body, now: Date(), in: db) }
            }
            return JSONResponse(goal, status: .created)
        }
        v1.delete("goals/{id}") { request, context in
            try request.allowQuery([])
            let text = try context.parameters.decoded("id")
            do {
                guard let id = Int64(text) else { throw GoalError.notFound(id: text) }
                try await database.write { db in try GoalBook.remove(id: id, in: db) }
            } catch let error as GoalError {
                throw APIError.notFound(error.description, code: "goal_not_found")
            }
            return Response(status: .noContent)
        }
    }
}
