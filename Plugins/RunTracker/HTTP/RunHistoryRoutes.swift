import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// The HTTP routes of run history, analysis, records, export and pictures.
package enum RunHistoryRoutes {
    /// Mounts `GET /v1/runs`, `GET/PATCH/DELETE /v1/runs/{id}`, `DELETE /v1/runs?ids=a,b`,
    /// `POST /v1/runs/{id}/restore`, `GET /v1/runs/{id}/edits`, `GET /v1/records`,
    /// `GET /v1/runs/{id}.gpx|.tcx|.geojson|.fit` and `GET /v1/runs/{id}/route.svg`.
    /// (`GET /v1/runs/active` and `POST /v1/runs/{id}/pause|resume|stop` belong to live tracking;
    /// Hummingbird matches constant path components first, so `active` never reaches `{id}`.)
    package static func add(
        to v1: RouterGroup<MeridianRequestContext>, store: Store, events: EventBus, units: UnitSystem,
        training: TrainingSettings = TrainingSettings(), timeZone: TimeZone = .current
    ) {
        let history = RunHistory(store: store, training: training)
        let runs = v1.group("runs")

        runs.get { request, _ in
            try request.allowQuery(["limit", "cursor", "q", "from", "to", "activity", "deleted"])
            return JSONResponse(try await mapped { try await history.list(try listQuery(request, timeZone: timeZone)) })
        }
        runs.delete { request, _ in
            try request.allowQuery(["ids"])
            guard let ids = try request.listQuery("ids"), !ids.isEmpty else {
                throw APIError.badRequest("give the runs to delete as ?ids=ID1,ID2 (a comma inside an id as %2C)")
            }
            return JSONResponse(try await mapped { try await history.delete(ids: ids) })
        }
        runs.get("{id}") { request, context in
            try request.allowQuery(["max_points", "keep_private"])
            let id = try context.parameters.decoded("id")
            let maxPoints = try request.intQuery("max_points", in: 2...10_000) ?? RunAnalysis.defaultMaxPoints
            let keepPrivate = try PrivacyQuery.flag(request, "keep_private")
            return JSONResponse(
                try await mapped { try await history.detail(id: id, maxPoints: maxPoints, keepPrivate: keepPrivate) })
        }
        runs.patch("{id}") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            let fields = try await request.decodeJSON([String: String].self)
            return JSONResponse(try await mapped { try await history.edit(id: id, try RunEdit(fields: fields)) })
        }
        runs.delete("{id}") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await history.delete(ids: [id]) })
        }
        runs.post("{id}/restore") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await history.restore(ids: [id]) }.first)
        }
        runs.get("{id}/edits") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await history.edits(id: id) })
        }
        for format in ExportFormat.allCases {
            runs.get("{id}.\(format.fileExtension)") { request, context in
                try request.allowQuery(["keep_private", "relative_time"])
                let id = try context.parameters.decoded("id")
                let (run, points) = try await mapped { try await history.track(id: id) }
                let laps = try await mapped { try await history.laps(id: id) }
                let privacy = try await history.privacyZones(keepPrivate: PrivacyQuery.flag(request, "keep_private"))
                return document(
                    format.file(
                        run: run, points: points, deviceLaps: laps, privacy: privacy,
                        relativeTime: try PrivacyQuery.flag(request, "relative_time")),
                    type: format.contentType,
                    filename: "\(id).\(format.fileExtension)", text: format != .fit)
            }
        }
        runs.get("{id}/route.svg") { request, context in
            try request.allowQuery(["width", "keep_private"])
            let id = try context.parameters.decoded("id")
            let (run, points) = try await mapped { try await history.track(id: id) }
            let width = try request.intQuery("width", in: 320...4000) ?? RouteRenderer.defaultWidth
            let privacy = try await history.privacyZones(keepPrivate: PrivacyQuery.flag(request, "keep_private"))
            return document(
                RouteRenderer(units: units, width: width).svg(run: run, points: points, privacy: privacy),
                type: "image/svg+xml", filename: nil)
        }
        v1.get("records") { request, _ in
            try request.allowQuery(["distance", "activity"])
            var distance: RecordDistance?
            if let text = request.query("distance") {
                guard let value = RecordDistance(rawValue: text) else {
                    throw APIError.badRequest(
                        "query parameter 'distance' must be one of \(RecordDistance.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'"
                    )
                }
                distance = value
            }
            let activity: Activity?
            do throws(RunHistoryError) {
                activity = try request.query("activity").map { text throws(RunHistoryError) in
                    try RunFilter.parseActivity(text, field: "query parameter 'activity'")
                }
            } catch {
                throw apiError(error)
            }
            return JSONResponse(try await mapped { try await history.records(distance: distance, activity: activity) })
        }
        // Deleted runs past their 30 days go at start-up; deletions and restores purge as they go.
        _ = try? history.purgeExpiredNow()
    }

    /// The list query of `GET /v1/runs`: `limit`, `cursor`, `q` (name), `from`, `to` (bare dates in `timeZone`),
    /// `activity`, `deleted` (`true` or `false`).
    static func listQuery(_ request: Request, timeZone: TimeZone) throws -> RunListQuery {
        let limit = try request.intQuery("limit", in: RunListQuery.limits) ?? 50
        do {
            let filter = try filter(request, timeZone: timeZone)
            return RunListQuery(
                limit: limit,
                cursor: try request.query("cursor").map { text throws(RunHistoryError) in try RunCursor(token: text) },
                name: request.query("q"), from: filter.from, to: filter.to, activity: filter.activity,
                deleted: try request.query("deleted").map { text throws(RunHistoryError) in
                    try RunListQuery.parseDeleted(text)
                } ?? false)
        } catch {
            throw apiError(error)
        }
    }

    /// The `from`, `to` and `activity` query parameters (bare dates in `timeZone`), shared by the list and the stats.
    static func filter(_ request: Request, timeZone: TimeZone) throws(RunHistoryError) -> RunFilter {
        RunFilter(
            from: try request.query("from").map { text throws(RunHistoryError) in
                try RunListQuery.parseBound(text, field: "from", isUpperBound: false, timeZone: timeZone)
            },
            to: try request.query("to").map { text throws(RunHistoryError) in
                try RunListQuery.parseBound(text, field: "to", isUpperBound: true, timeZone: timeZone)
            },
            activity: try request.query("activity").map { text throws(RunHistoryError) in
                try RunFilter.parseActivity(text, field: "query parameter 'activity'")
            })
    }

    /// Runs `body`, turning history errors into API errors (404, 409, 400).
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RunHistoryError {
            throw apiError(error)
        }
    }

    static func apiError(_ error: RunHistoryError) -> APIError {
        switch error {
        case .notFound: return APIError.notFound(error.description, code: "run_not_found")
        case .active: return APIError.conflict(error.description, code: "run_active")
        case .notDeleted: return APIError.conflict(error.description, code: "not_deleted")
        case .deleted: return APIError(.gone, code: "run_deleted", message: error.description)
        case .invalid: return APIError.badRequest(error.description)
        }
    }

    static func document(_ text: String, type: String, filename: String?) -> Response {
        document(Data(text.utf8), type: type, filename: filename)
    }

    /// A file as the answer: UTF-8 text unless `text` is false (a binary file such as FIT), as an attachment when
    /// it has a `filename`.
    static func document(_ bytes: Data, type: String, filename: String?, text: Bool = true) -> Response {
        var headers: HTTPFields = [.contentType: text ? "\(type); charset=utf-8" : type]
        if let filename { headers[.contentDisposition] = "attachment; filename=\"\(filename)\"" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
