import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// `POST /v1/flyers/search` (within, intersects, near_line) and `GET /v1/flyers?bbox=` (a map viewport).
extension FlyerPlugin {
    /// The flyers a `POST /v1/flyers/search` body asks for.
    func areaSearch(_ request: Request) async throws -> FlyerList {
        let body = try await request.collectBody(limit: AreaRequest.maximumBodyBytes, mediaTypes: Self.bodyTypes)
        let query: AreaQuery
        do {
            query = try AreaRequest.query(
                body: body, defaultLimit: options.defaultLimit, maximumLimit: options.maxResults)
        } catch {
            throw APIError.badRequest(error.description, code: "invalid_body")
        }
        return try await answer(query)
    }

    /// The flyers that have a point in the viewport of `bbox=west,south,east,north`.
    func viewport(_ request: Request) async throws -> FlyerList {
        let parameters = QueryParameters(request)
        try parameters.allow(["bbox", "limit", "cursor", "category", "q", "at", "include_inactive"])
        let box: QueryBox
        var after: DistancePosition?
        let text: TextQuery?
        do {
            box = try AreaRequest.box(parameters.string("bbox") ?? "")
            after = try parameters.string("cursor").map(AreaRequest.cursor)
            text = try AreaRequest.text(parameters.string("q"))
        } catch {
            throw APIError.badRequest("query parameter '\(error.field)' \(error.message)")
        }
        let query = AreaQuery(
            .box(box), limit: try parameters.int("limit", in: 1...options.maxResults) ?? options.defaultLimit,
            category: parameters.string("category"), at: try Self.instant(parameters),
            includeInactive: try Self.flag(parameters, "include_inactive"), after: after, text: text)
        return try await answer(query)
    }

    private func answer(_ query: AreaQuery) async throws -> FlyerList {
        do {
            return try await search.respond(query, catalog: catalog)
        } catch {
            throw Self.apiError(error)
        }
    }
}
