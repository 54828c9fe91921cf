import Foundation
import MeridianCore

/// Area queries as the API and the CLI take them: the body of `POST /v1/flyers/search`, `bbox=` and the
/// GeoJSON file of `meridian flyers within`, checked with errors that name the field.
package enum AreaRequest {
    /// The most positions a query's polygon or line may have.
    package static let maximumPositions = 10_000
    /// The largest `buffer_m` (a quarter of a meridian).
    package static let maximumBuffer = 10_000_000.0
    /// The largest body `POST /v1/flyers/search` takes.
    package static let maximumBodyBytes = 1 << 20

    /// The query in a `POST /v1/flyers/search` body: exactly one of `within`, `intersects` (GeoJSON Polygon,
    /// MultiPolygon, or a Feature of one) or `near_line` (a LineString) with `buffer_m`; optional `limit`,
    /// `cursor`, `category`, `q`, `at`, `include_inactive`.
    package static func query(body: Data, defaultLimit: Int, maximumLimit: Int) throws(AreaQueryError) -> AreaQuery {
        let object: JSONValue
        do {
            object = try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            throw AreaQueryError(
                field: "body", message: "is not JSON: send an object such as {\"within\": {\"type\": \"Polygon\", …}}")
        }
        guard case .object(let members) = object else {
            throw AreaQueryError(
                field: "body", message: "must be a JSON object with 'within', 'intersects' or 'near_line'")
        }
        let known = [
            "within", "intersects", "near_line", "buffer_m", "limit", "cursor", "category", "q", "at",
            "include_inactive"
        ]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw AreaQueryError(field: unknown, message: "is not a search field; use \(known.joined(separator: ", "))")
        }
        let given = ["within", "intersects", "near_line"].filter { members[$0] != nil }
        guard given.count == 1, let key = given.first, let geometry = members[key] else {
            throw AreaQueryError(
                field: "body", message: "give exactly one of 'within', 'intersects' or 'near_line', got \(given.count)")
        }
        let kind: AreaQuery.Kind
        switch key {
        case "near_line":
            guard let buffer = members["buffer_m"]?.number else {
                throw AreaQueryError(
                    field: "buffer_m", message: "near_line needs buffer_m, the distance in metres from the route")
            }
            guard buffer >= 0, buffer <= maximumBuffer else {
                throw AreaQueryError(
                    field: "buffer_m", message: "must be 0 to \(Int(maximumBuffer)) metres, got \(buffer)")
            }
            kind = .nearLine(QueryLine(try line(geometry, field: key), buffer: buffer))
        default:
            if members["buffer_m"] != nil {
                throw AreaQueryError(field: "buffer_m", message: "belongs to near_line only")
            }
            let polygon = try QueryPolygon(try polygons(geometry, field: key), field: key)
            kind = key == "within" ? .within(polygon) : .intersects(polygon)
        }
        var limit = defaultLimit
        if let value = members["limit"] {
            guard let number = value.number, number == number.rounded(), number >= 1, number <= Double(maximumLimit)
            else {
                throw AreaQueryError(field: "limit", message: "must be a whole number from 1 to \(maximumLimit)")
            }
            limit = Int(number)
        }
        var at = Date()
        if let value = members["at"] {
            guard let text = value.string, let date = ISO8601.date(from: text) else {
                throw AreaQueryError(field: "at", message: "must be an ISO 8601 date-time such as 2024-05-01T18:00:00Z")
            }
            at = date
        }
        var includeInactive = false
        if let value = members["include_inactive"] {
            guard case .bool(let flag) = value else {
                throw AreaQueryError(field: "include_inactive", message: "must be true or false")
            }
            includeInactive = flag
        }
        var category: String?
        if let value = members["category"] {
            guard let text = value.string else { throw AreaQueryError(field: "category", message: "must be a string") }
            category = text
        }
        var after: DistancePosition?
        if let value = members["cursor"] {
            guard let token = value.string else { throw AreaQueryError(field: "cursor", message: "must be a string") }
            after = try cursor(token)
        }
        var typed: String?
        if let value = members["q"] {
            guard let text = value.string else { throw AreaQueryError(field: "q", message: "must be a string") }
            typed = text
        }
        return AreaQuery(
            kind, limit: limit, category: category, at: at, includeInactive: includeInactive, after: after,
            text: try text(typed))
    }

    /// The words of `q` (every one must start a word of a flyer's title, description, address or category).
    package static func text(_ typed: String?) throws(AreaQueryError) -> TextQuery? {
        guard let typed else { return nil }
        do {
            return try TextQuery(typed)
        } catch {
            throw AreaQueryError(field: "q", message: error.description)
        }
    }

    /// The viewport of `bbox=west,south,east,north` (degrees; across ±180° when west > east).
    package static func box(_ text: String) throws(AreaQueryError) -> QueryBox {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3],
            [west, south, east, north].allSatisfy(\.isFinite)
        else {
            throw AreaQueryError(
                field: "bbox", message: "must be four numbers west,south,east,north in degrees, got '\(text)'")
        }
        for (name, value) in [("west", west), ("east", east)] where !(-180...180).contains(value) {
            throw AreaQueryError(field: "bbox", message: "\(name) longitude \(value) is outside -180...180")
        }
        for (name, value) in [("south", south), ("north", north)] where !(-90...90).contains(value) {
            throw AreaQueryError(
                field: "bbox",
                message: "\(name) latitude \(value) is outside -90...90; is the order west,south,east,north?")
        }
        guard let box = QueryBox(west: west, south: south, east: east, north: north) else {
            throw AreaQueryError(
                field: "bbox", message: "south \(south) is north of north \(north); the order is west,south,east,north")
        }
        return box
    }

    /// The distance position a nearby or area cursor holds.
    package static func cursor(_ token: String) throws(AreaQueryError) -> DistancePosition {
        guard case .distance(let position)? = SearchCursor(token: token) else {
            throw AreaQueryError(
                field: "cursor",
                message: "is not a cursor of this search; pass next_cursor from the previous page unchanged")
        }
        return position
    }

    /// The polygons of a GeoJSON Polygon or MultiPolygon, a Feature of one, or a FeatureCollection of them.
    static func polygons(_ value: JSONValue, field: String) throws(AreaQueryError) -> [[[Coordinate]]] {
        let polygons: [[[Coordinate]]]
        switch value["type"]?.string {
        case "Feature":
            guard let geometry = value["geometry"] else {
                throw AreaQueryError(field: "\(field).geometry", message: "the Feature has no geometry")
            }
            polygons = try Self.polygons(geometry, field: "\(field).geometry")
        case "FeatureCollection":
            guard let features = value["features"]?.array, !features.isEmpty else {
                throw AreaQueryError(field: "\(field).features", message: "the FeatureCollection has no features")
            }
            var all: [[[Coordinate]]] = []
            for (index, feature) in features.enumerated() {
                all += try Self.polygons(feature, field: "\(field).features[\(index)]")
            }
            polygons = all
        case "Polygon", "MultiPolygon":
            do {
                polygons = try GeoJSONFlyers.geometry(value, location: field).polygons
            } catch {
                let path = (error.field ?? "").replacingOccurrences(of: "geometry.", with: ".")
                throw AreaQueryError(field: field + path, message: error.message)
            }
        case let other:
            throw AreaQueryError(
                field: "\(field).type",
                message:
                    "'\(other ?? "")' is not an area; use a GeoJSON Polygon or MultiPolygon (or near_line for a LineString)"
            )
        }
        try checkSize(polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }, field: field)
        return polygons
    }

    /// The positions of a GeoJSON LineString (or a Feature of one).
    static func line(_ value: JSONValue, field: String) throws(AreaQueryError) -> [Coordinate] {
        if value["type"]?.string == "Feature", let geometry = value["geometry"] {
            return try line(geometry, field: "\(field).geometry")
        }
        guard value["type"]?.string == "LineString" else {
            throw AreaQueryError(field: "\(field).type", message: "near_line takes a GeoJSON LineString")
        }
        guard let positions = value["coordinates"]?.array, positions.count >= 2 else {
            throw AreaQueryError(field: "\(field).coordinates", message: "a LineString needs at least two positions")
        }
        try checkSize(positions.count, field: field)
        var line: [Coordinate] = []
        for (index, position) in positions.enumerated() {
            guard let numbers = position.array, numbers.count >= 2, let longitude = numbers[0].number,
                let latitude = numbers[1].number
            else {
                throw AreaQueryError(
                    field: "\(field).coordinates[\(index)]", message: "a position must be [longitude, latitude]")
            }
            do {
                line.append(try GeometryReader.coordinate(longitude: longitude, latitude: latitude))
            } catch {
                throw AreaQueryError(field: "\(field).coordinates[\(index)]", message: error.text)
            }
        }
        return line
    }

    private static func checkSize(_ positions: Int, field: String) throws(AreaQueryError) {
        guard positions <= maximumPositions else {
            throw AreaQueryError(
                field: field,
                message:
                    "has \(positions) positions; the limit is \(maximumPositions): simplify the shape or split the query"
            )
        }
    }
}
