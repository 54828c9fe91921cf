import Foundation
import HTTPTypes
import Hummingbird
import MeridianCore
import MeridianHTTP

/// `/v1/flyers`: search, list and CRUD. Bodies are GeoJSON Features (or a FeatureCollection for POST).
extension FlyerPlugin {
    package func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        let group = v1.group("flyers")
        group.get("nearby") { request, _ in
            let query = QueryParameters(request)
            try query.allow(Self.nearbyParameters)
            return JSONResponse(try await self.nearby(query))
        }
        group.post("search") { request, _ in
            try request.allowQuery([])
            return JSONResponse(try await self.areaSearch(request))
        }
        group.get { request, _ in
            if request.query("bbox") != nil { return JSONResponse(try await self.viewport(request)) }
            try request.allowQuery(["limit", "cursor"])
            return JSONResponse(try await self.list(request))
        }
        group.post { request, _ in
            try request.allowQuery([])
            return try await self.create(request)
        }
        group.get(":id") { request, context in
            try request.allowQuery([])
            return try await self.feature(try context.parameters.decoded("id"))
        }
        group.put(":id") { request, context in
            try request.allowQuery([])
            return try await self.replace(try context.parameters.decoded("id"), request)
        }
        group.delete(":id") { request, context in
            try request.allowQuery([])
            return try await self.delete(try context.parameters.decoded("id"))
        }
    }

    /// The query parameters nearby takes.
    static let nearbyParameters: Set<String> = [
        "lat", "lon", "radius_m", "limit", "category", "cursor", "at", "include_inactive", "q"
    ]

    /// The media types a flyer body may be sent as.
    static let bodyTypes = ["application/geo+json", "application/json"]

    func nearby(_ query: QueryParameters) async throws -> NearbyResponse {
        let latitude = try query.double("lat"), longitude = try query.double("lon")
        var center: Coordinate?
        switch (latitude, longitude) {
        case (let latitude?, let longitude?):
            do {
                center = try Coordinate(latitude: latitude, longitude: longitude)
            } catch {
                throw APIError.badRequest("lat/lon: \(error.description)")
            }
        case (nil, nil):
            center = nil
        default:
            throw APIError.badRequest("give both 'lat' and 'lon', or neither to search around the current position")
        }
        let at = try Self.instant(query)
        let nearbyRequest = NearbyRequest(
            center: center, radius: try query.double("radius_m") ?? options.defaultRadiusM,
            limit: try query.int("limit", in: 1...options.maxResults) ?? options.defaultLimit,
            category: query.string("category"), cursor: query.string("cursor"), at: at,
            includeInactive: try Self.flag(query, "include_inactive"), text: query.string("q"))
        do {
            return try await search.respond(
                nearbyRequest, position: center == nil ? context.position.latestPosition : nil, catalog: catalog)
        } catch let error as NearbyRequestError {
            throw APIError.badRequest("query parameter '\(error.parameter)' \(error.message)")
        } catch let error as FlyerStoreError {
            throw Self.apiError(error)
        }
    }

    /// The `at` parameter, else now.
    static func instant(_ query: QueryParameters) throws -> Date {
        guard let text = query.string("at") else { return Date() }
        guard let date = ISO8601.date(from: text) else {
            throw APIError.badRequest(
                "query parameter 'at' must be an ISO 8601 date-time such as 2024-05-01T18:00:00Z, got '\(text)'")
        }
        return date
    }

    static func flag(_ query: QueryParameters, _ name: String) throws -> Bool {
        switch query.string(name) {
        case nil, "false", "0": return false
        case "true", "1": return true
        case let other?: throw APIError.badRequest("query parameter '\(name)' must be true or false, got '\(other)'")
        }
    }

    /// Every flyer by id, a page at a time (`limit`, `cursor` = the last id of the previous page).
    func list(_ request: Request) async throws -> FlyerList {
        let limit = try request.intQuery("limit", in: 1...options.maxResults) ?? options.defaultLimit
        do {
            let (searcher, stale) = try catalog.reader()
            let page = try await searcher.list(limit: limit, after: request.query("cursor"))
            let items = page.flyers.map { flyer in
                search.presenter.result(flyer, target: PreparedFlyer(flyer)?.target(from: nil) ?? .zero)
            }
            return FlyerList(
                items: items, nextCursor: page.hasMore ? page.flyers.last?.id : nil, stale: stale ? true : nil)
        } catch {
            throw Self.apiError(error)
        }
    }

    func create(_ request: Request) async throws -> JSONResponse<CreatedFlyers> {
        let flyers = try parse(try await request.collectBody(mediaTypes: Self.bodyTypes))
        try await write(flyers, mode: .create)
        return JSONResponse(CreatedFlyers(ids: flyers.map(\.id)), status: .created)
    }

    func feature(_ id: String) async throws -> Response {
        let found: Flyer?
        let stale: Bool
        do {
            let reader = try catalog.reader()
            found = try await reader.searcher.flyer(id: id)
            stale = reader.stale
        } catch {
            throw Self.apiError(error)
        }
        guard let flyer = found else { throw Self.unknown(id) }
        var headers: HTTPFields = [.contentType: "application/geo+json"]
        if stale { headers[Self.staleHeader] = "true" }
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: GeoJSONFlyers.feature(flyer))))
    }

    /// Marks an answer from the cache while the database cannot be reached.
    static let staleHeader = HTTPField.Name("Meridian-Stale")!

    func replace(_ id: String, _ request: Request) async throws -> Response {
        try APIError.checkID(id)
        let flyers = try parse(try await request.collectBody(mediaTypes: Self.bodyTypes))
        guard flyers.count == 1, var flyer = flyers.first else {
            throw APIError.badRequest("PUT takes one GeoJSON Feature, got \(flyers.count)")
        }
        if let given = Self.explicitID(flyer), given != id {
            throw APIError.badRequest(
                "the Feature's id '\(given)' differs from the path's '\(id)'; leave it out or make them equal")
        }
        flyer.id = id
        let existed: Bool
        do {
            existed = try await catalog.flyer(id: id) != nil
        } catch {
            throw Self.apiError(error)
        }
        try await write([flyer], mode: .upsert)
        return Response(
            status: existed ? .ok : .created, headers: [.contentType: "application/geo+json"],
            body: .init(byteBuffer: ByteBuffer(string: GeoJSONFlyers.feature(flyer))))
    }

    func delete(_ id: String) async throws -> Response {
        let deleted: Bool
        do {
            deleted = try await catalog.delete(id: id)
        } catch {
            throw Self.apiError(error)
        }
        guard deleted else { throw Self.unknown(id) }
        return Response(status: .noContent)
    }

    /// Writes through the catalogue, with its errors as API errors.
    private func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(APIError) {
        do {
            try await catalog.write(flyers, mode: mode)
        } catch {
            throw Self.apiError(error)
        }
    }

    /// A store error as the API answers it: 409 for an existing id, 400 for a repeated one, 503 with
    /// `Retry-After` while the database is busy with another writer (as every storage refusal is answered) or
    /// unreachable, else 500.
    static func apiError(_ error: FlyerStoreError) -> APIError {
        var answer: APIError
        switch error {
        case .duplicateID: return APIError.conflict(error.description, code: "duplicate_id")
        case .repeatedID, .invalidInput: return APIError.badRequest(error.description)
        case .busy: return .storageUnavailable(.busy, because: error)
        case .unavailable:
            // A PostgreSQL server that cannot be reached refuses nothing about the data: it has an answer of its own.
            answer = APIError(.serviceUnavailable, code: "database_unavailable", message: error.description)
            answer.headers[.retryAfter] = "5"
        case .unreadableRow, .database:
            answer = APIError(.internalServerError, code: "store_failed", message: error.description)
        }
        return answer
    }

    private func parse(_ body: Data) throws -> [Flyer] {
        do {
            return try GeoJSONFlyers.read(body, timeZone: context.timeZone)
        } catch {
            throw APIError.badRequest(error.description, code: error.kind == .invalidID ? "invalid_id" : "invalid_body")
        }
    }

    /// The id a parsed Feature was given (generated ids are UUIDs the client never saw, so they do not count).
    private static func explicitID(_ flyer: Flyer) -> String? {
        UUID(uuidString: flyer.id) == nil ? flyer.id : nil
    }

    static func unknown(_ id: String) -> APIError {
        APIError.notFound("no flyer with id '\(id)'; list flyers with GET /v1/flyers")
    }
}

/// `POST /v1/flyers` answer.
package struct CreatedFlyers: Codable, Sendable, Equatable {
    package var ids: [String]
}

/// `GET /v1/flyers` answer.
package struct FlyerList: Codable, Sendable, Equatable {
    package var items: [FlyerResult]
    package var nextCursor: String?
    /// True when the database cannot be reached and the in-memory cache answered; absent otherwise.
    package var stale: Bool?
}
