import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// The HTTP routes of training insight: `GET /v1/fitness` and `GET /v1/vdot`.
package enum TrainingRoutes {
    package static func add(
        to v1: RouterGroup<MeridianRequestContext>, store: Store, training: TrainingSettings, timeZone: TimeZone
    ) {
        let database = store.database
        v1.get("fitness") { request, _ in
            try request.allowQuery(["from", "to"])
            let (from, to) = try ProgressRoutes.mappedNow {
                (
                    try request.query("from").map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "from", isUpperBound: false, timeZone: timeZone)
                    },
                    try request.query("to").map { text throws(RunHistoryError) in
                        try RunListQuery.parseBound(text, field: "to", isUpperBound: false, timeZone: timeZone)
                    }
                )
            }
            return JSONResponse(
                try await TrainingBook.fitness(
                    settings: training, from: from, to: to, timeZone: timeZone, now: Date(),
                    in: database))
        }
        v1.get("vdot") { request, _ in
            try request.allowQuery(["at"])
            let at = try ProgressRoutes.mappedNow {
                try request.query("at").map { text throws(RunHistoryError) in
                    try RunListQuery.parseBound(text, field: "at", isUpperBound: true, timeZone: timeZone)
                }
            }
            guard let report = try await database.read({ db in try VdotBook.current(at: at, in: db) }) else {
                throw APIError.notFound(
                    "no run in the 6 weeks up to then has a best effort of a mile or more; import or record a run first",
                    code: "no_efforts")
            }
            return JSONResponse(report)
        }
    }
}
