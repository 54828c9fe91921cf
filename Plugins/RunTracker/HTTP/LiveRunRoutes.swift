import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// The HTTP routes of live tracking under `/v1/runs`.
struct LiveRunRoutes: Sendable {
    let controller: LiveRunController

    /// Body of `POST /v1/runs`.
    struct StartRequest: Decodable, Sendable {
        var name: String?
        var activity: String?
        /// Optional client-chosen id: repeating a start with the active run's id returns it instead of failing.
        var id: String?
    }

    func add(to v1: RouterGroup<MeridianRequestContext>) {
        v1.post("runs") { request, _ in
            try request.allowQuery([])
            let body = try await Self.startRequest(request)
            if let id = body.id { try APIError.checkID(id) }
            let activity = try Self.activity(body.activity)
            return JSONResponse(
                try await mapped { try await controller.start(name: body.name, activity: activity, id: body.id) },
                status: .created)
        }
        v1.get("runs/active") { request, _ in
            try request.allowQuery([])
            guard let status = try await mapped({ try await controller.activeStatus() }) else {
                throw APIError.notFound("no run is being tracked; start one with POST /v1/runs", code: "no_active_run")
            }
            return JSONResponse(status)
        }
        v1.post("runs/active/lap") { request, _ in
            try request.allowQuery([])
            guard let status = try await mapped({ try await controller.lap() }) else {
                throw APIError.notFound("no run is being tracked; start one with POST /v1/runs", code: "no_active_run")
            }
            return JSONResponse(status, status: .created)
        }
        v1.post("runs/:id/pause") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await controller.pause(id: id) })
        }
        v1.post("runs/:id/resume") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await controller.resume(id: id) })
        }
        v1.post("runs/:id/stop") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            return JSONResponse(try await mapped { try await controller.stop(id: id) })
        }
        v1.post("runs/:id/discard") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            try await mapped { try await controller.discard(id: id) }
            return Response(status: .noContent)
        }
    }

    private static func startRequest(_ request: Request) async throws -> StartRequest {
        let data = try await request.collectBody(limit: 64 << 10, mediaTypes: ["application/json"])
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            return StartRequest()
        }
        do {
            return try MeridianJSON.makeDecoder().decode(StartRequest.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest(
                "the JSON body is not valid: \(DecodingErrorText.describe(error)); send {\"name\": \"…\", \"activity\": \"run\"}",
                code: "invalid_body")
        }
    }

    private static func activity(_ text: String?) throws -> Activity {
        guard let text else { return .run }
        guard let activity = Activity(rawValue: text) else {
            let allowed = Activity.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.badRequest("activity '\(text)' is not known; use one of \(allowed)")
        }
        return activity
    }
}

/// Runs `operation`, turning command errors into API errors (404, 409, 400).
@discardableResult
func mapped<T>(_ operation: () async throws -> T) async throws -> T {
    do {
        return try await operation()
    } catch let error as RunCommandError {
        switch error {
        case .noSuchRun: throw APIError.notFound(error.description, code: "run_not_found")
        case .anotherRunActive: throw APIError.conflict(error.description, code: "run_active")
        case .notActive: throw APIError.conflict(error.description, code: "run_not_active")
        case .notDraft: throw APIError.conflict(error.description, code: "run_not_draft")
        case .finished: throw APIError.conflict(error.description, code: "run_finished")
        case .notCurrentDraft: throw APIError.conflict(error.description, code: "run_not_resumable")
        case .invalidName: throw APIError.badRequest(error.description)
        }
    }
}
