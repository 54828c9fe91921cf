import Foundation
import GRDB
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// What progress over time needs from the configuration.
package struct ProgressSettings: Sendable {
    /// Units of the compared splits (km or mile).
    package var units: UnitSystem
    /// The time zone calendar periods are cut in.
    package var timeZone: TimeZone
    /// How runs are grouped into routes.
    package var matcher: RouteMatcher

    package init(units: UnitSystem = .metric, timeZone: TimeZone = .current, matcher: RouteMatcher = RouteMatcher()) {
        self.units = units
        self.timeZone = timeZone
        self.matcher = matcher
    }

    /// The split unit of comparisons: its name and length in metres.
    package var split: (unit: String, distance: Double) {
        units == .metric ? ("km", 1000) : ("mile", UnitSystem.metresPerMile)
    }
}

/// The HTTP routes of progress over time: `GET /v1/runs/stats`, `GET /v1/runs/compare`, `GET /v1/routes`,
/// `GET /v1/routes/{id}`, `GET|POST /v1/segments`, `GET|DELETE /v1/segments/{id}`, `GET /v1/segments/{id}/efforts`.
package enum ProgressRoutes {
    package static func add(to v1: RouterGroup<MeridianRequestContext>, settings: ProgressSettings, store: Store) {
        let database = store.database
        v1.get("runs/stats") { request, _ in
            try request.allowQuery(["by", "from", "to", "activity"])
            let (period, filter) = try mappedNow {
                (
                    try request.query("by").map { text throws(ProgressError) in try StatsPeriod.parse(text, field: "by")
                    },
                    try RunHistoryRoutes.filter(request, timeZone: settings.timeZone)
                )
            }
            return JSONResponse(
                try await mapped {
                    try await database.read { db in
                        try RunStatsReport.make(by: period, filter: filter, timeZone: settings.timeZone, in: db)
                    }
                })
        }
        v1.get("runs/compare") { request, _ in
            try request.allowQuery(["a", "b"])
            guard let a = request.query("a"), let b = request.query("b") else {
                throw APIError.badRequest("give the two runs to compare as ?a=RUN_ID&b=RUN_ID")
            }
            let split = settings.split
            return JSONResponse(
                try await mapped {
                    try await database.read { db in
                        try RunComparison.make(a, b, unit: split.unit, unitDistance: split.distance, in: db)
                    }
                })
        }
        v1.get("routes") { request, _ in
            try request.allowQuery(["activity", "min_runs"])
            let minimum = try request.intQuery("min_runs", in: 1...1_000_000) ?? 2
            let activity = try mappedNow {
                try request.query("activity").map { text throws(RunHistoryError) in
                    try RunFilter.parseActivity(text, field: "query parameter 'activity'")
                }
            }
            return JSONResponse(
                RouteList(
                    routes: try await database.read { db in
                        try RouteBook.list(minimumRuns: minimum, activity: activity, in: db)
                    }))
        }
        v1.get("routes/{id}") { request, context in
            try request.allowQuery([])
            let text = try context.parameters.decoded("id")
            return JSONResponse(
                try await mapped {
                    guard let id = Int64(text) else { throw ProgressError.routeNotFound(id: text) }
                    return try await database.read { db in try RouteBook.route(id: id, in: db) }
                })
        }
        // Segments' paths are cut by the privacy zones as runs' routes are (`keep_private=true`: the whole path).
        v1.get("segments") { request, _ in
            try request.allowQuery(["keep_private"])
            let keepPrivate = try PrivacyQuery.flag(request, "keep_private")
            return JSONResponse(
                SegmentList(
                    segments: try await database.read { db in
                        let zones = try PrivacyZones.load(db, keepPrivate: keepPrivate)
                        return try SegmentBook.list(in: db).map { $0.hiding(zones) }
                    }))
        }
        v1.post("segments") { request, _ in
            try request.allowQuery(["keep_private"])
            let keepPrivate = try PrivacyQuery.flag(request, "keep_private")
            let segment = try await mapped {
                let body = try await request.decodeJSON(SegmentRequest.self, limit: 64 << 10)
                return try await database.write { db in
                    try SegmentBook.add(body, in: db).hiding(PrivacyZones.load(db, keepPrivate: keepPrivate))
                }
            }
            return JSONResponse(segment, status: .created)
        }
        v1.get("segments/{id}") { request, context in
            try request.allowQuery(["keep_private"])
            let keepPrivate = try PrivacyQuery.flag(request, "keep_private")
            let key = try context.parameters.decoded("id")
            return JSONResponse(
                try await mapped {
                    try await database.read { db in
                        try SegmentBook.segment(key, in: db).hiding(PrivacyZones.load(db, keepPrivate: keepPrivate))
                    }
                })
        }
        v1.delete("segments/{id}") { request, context in
            try request.allowQuery([])
            let key = try context.parameters.decoded("id")
            _ = try await mapped { try await database.write { db in try SegmentBook.delete(key, in: db) } }
            return Response(status: .noContent)
        }
        v1.get("segments/{id}/efforts") { request, context in
            try request.allowQuery(["keep_private"])
            let keepPrivate = try PrivacyQuery.flag(request, "keep_private")
            let key = try context.parameters.decoded("id")
            return JSONResponse(
                try await mapped {
                    try await database.read { db in
                        try SegmentBook.efforts(key, in: db).hiding(PrivacyZones.load(db, keepPrivate: keepPrivate))
                    }
                })
        }
    }

    /// Runs `body`, turning progress and history errors into API errors (404, 409, 410, 400).
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await RunHistoryRoutes.mapped(body)
        } catch let error as ProgressError {
            throw apiError(error)
        }
    }

    static func mappedNow<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ProgressError {
            throw apiError(error)
        } catch let error as RunHistoryError {
            throw RunHistoryRoutes.apiError(error)
        }
    }

    static func apiError(_ error: ProgressError) -> APIError {
        switch error {
        case .routeNotFound: return APIError.notFound(error.description, code: "route_not_found")
        case .segmentNotFound: return APIError.notFound(error.description, code: "segment_not_found")
        case .segmentExists: return APIError.conflict(error.description, code: "segment_exists")
        case .invalid: return APIError.badRequest(error.description)
        }
    }
}

/// `{"routes": [route…]}`.
package struct RouteList: Sendable, Encodable {
    package var routes: [Route]
}

/// `{"segments": [segment…]}`.
package struct SegmentList: Sendable, Encodable {
    package var segments: [Segment]
}
