import Foundation
import MeridianCore

/// A nearby request as the API and the CLI take it, before it becomes a `NearbyQuery`.
package struct NearbyRequest: Sendable, Equatable {
    /// Nil: use the current position, if any.
    package var center: Coordinate?
    package var radius: Double?
    package var limit: Int
    package var category: String?
    package var cursor: String?
    package var at: Date
    package var includeInactive: Bool
    /// Text to search for (`q`), as the user typed it.
    package var text: String?

    package init(
        center: Coordinate? = nil, radius: Double? = nil, limit: Int = 20, category: String? = nil,
        cursor: String? = nil, at: Date = Date(), includeInactive: Bool = false, text: String? = nil
    ) {
        self.center = center
        self.radius = radius
        self.limit = limit
        self.category = category
        self.cursor = cursor
        self.at = at
        self.includeInactive = includeInactive
        self.text = text
    }
}

/// A request that cannot be answered, naming the parameter.
package struct NearbyRequestError: Error, Equatable, CustomStringConvertible {
    package var parameter: String
    package var message: String
    package var description: String { "\(parameter): \(message)" }
}

/// Answers nearby requests: by exact distance from the centre (or the current position),
/// or, with neither, by title with `location_available: false`.
package struct NearbySearch: Sendable {
    package let presenter: FlyerPresenter

    package init(presenter: FlyerPresenter) {
        self.presenter = presenter
    }

    /// Answers from the catalogue's cache, or its database when the cache is cold (`stale` when
    /// a warm cache answers while the database is unreachable). Throws `NearbyRequestError` for
    /// bad requests and `FlyerStoreError` when nothing can answer.
    package func respond(_ request: NearbyRequest, position: Coordinate?, catalog: FlyerCatalog) async throws
        -> NearbyResponse
    {
        let (searcher, stale) = try catalog.reader()
        var response = try await respond(request, position: position, searcher: searcher)
        if stale { response.stale = true }
        return response
    }

    /// Answers from `searcher`.
    package func respond(_ request: NearbyRequest, position: Coordinate?, searcher: any FlyerSearching) async throws
        -> NearbyResponse
    {
        if let radius = request.radius, !(radius.isFinite && radius > 0) {
            throw NearbyRequestError(parameter: "radius_m", message: "must be a distance in metres above 0")
        }
        var text: TextQuery?
        if let typed = request.text {
            do {
                text = try TextQuery(typed)
            } catch {
                throw NearbyRequestError(parameter: "q", message: error.description)
            }
        }
        let cursor: SearchCursor?
        if let token = request.cursor {
            guard let parsed = SearchCursor(token: token) else {
                throw NearbyRequestError(
                    parameter: "cursor",
                    message: "is not a cursor from this API; pass next_cursor from the previous page unchanged")
            }
            cursor = parsed
        } else {
            cursor = nil
        }
        guard let center = request.center ?? position else {
            var after: TitlePosition?
            if let cursor {
                guard case .title(let position) = cursor else {
                    throw NearbyRequestError(
                        parameter: "cursor",
                        message:
                            "belongs to a search with a location, but no location is available now; start again without cursor"
                    )
                }
                after = position
            }
            let page = try await searcher.byTitle(
                limit: request.limit, category: request.category, at: request.at,
                includeInactive: request.includeInactive, after: after, text: text)
            let items = page.flyers.map { flyer in
                presenter.result(flyer, target: PreparedFlyer(flyer)?.target(from: nil) ?? Self.anyPoint(flyer))
            }
            let next =
                page.hasMore
                ? page.flyers.last.map { SearchCursor.title(TitlePosition(title: $0.title, id: $0.id)).token } : nil
            return NearbyResponse(
                locationAvailable: false, center: nil, radiusM: request.radius, items: items, nextCursor: next)
        }
        var after: DistancePosition?
        if let cursor {
            guard case .distance(let position) = cursor else {
                throw NearbyRequestError(
                    parameter: "cursor", message: "belongs to a search without a location; start again without cursor")
            }
            after = position
        }
        let query = NearbyQuery(
            center: center, radius: request.radius, limit: request.limit, category: request.category,
            at: request.at, includeInactive: request.includeInactive, after: after, text: text)
        let page = try await searcher.nearby(query)
        let items = page.matches.map { match in
            let target =
                match.distance > 0 ? match.nearest : (PreparedFlyer(match.flyer)?.target(from: center) ?? match.nearest)
            return presenter.result(match, center: center, target: target)
        }
        let next = page.hasMore ? page.matches.last.map { SearchCursor.distance($0.position).token } : nil
        return NearbyResponse(
            locationAvailable: true, center: CenterPoint(lat: center.latitude, lon: center.longitude),
            radiusM: request.radius, items: items, nextCursor: next)
    }

    private static func anyPoint(_ flyer: Flyer) -> Coordinate {
        switch flyer.geometry {
        case .point(let point): return point
        case .polygon, .multiPolygon: return flyer.geometry.polygons.first?.first?.first ?? .zero
        }
    }
}
