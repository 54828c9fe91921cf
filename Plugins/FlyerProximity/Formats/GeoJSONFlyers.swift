import Foundation
import MeridianCore

/// Flyers as GeoJSON (RFC 7946): a FeatureCollection of Features whose `id` member (or
/// `properties.id`) is the flyer id and whose properties hold the other fields.
package enum GeoJSONFlyers {
    /// Reads a FeatureCollection or a single Feature. Any problem rejects the whole
    /// document, naming the feature index and the field. Bare dates are days in `timeZone` (the configured `time_zone`).
    package static func read(_ data: Data, timeZone: TimeZone = .gmt) throws(FlyerInputError) -> [Flyer] {
        try FlyerInputError.firstProblem(of: readAll(data, errorLimit: 1, timeZone: timeZone))
    }

    /// Reads every feature, collecting up to `errorLimit` problems (each naming its feature and field) instead of
    /// stopping at the first: for showing everything wrong with an uploaded file at once.
    package static func readAll(_ data: Data, errorLimit: Int, timeZone: TimeZone = .gmt) -> (
        flyers: [Flyer], errors: [FlyerInputError]
    ) {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            return (
                [],
                [
                    FlyerInputError(
                        location: "document",
                        message:
                            "not valid JSON (\(error.localizedDescription)); give a GeoJSON FeatureCollection or Feature"
                    )
                ]
            )
        }
        guard let type = root["type"]?.string else {
            return (
                [],
                [
                    FlyerInputError(
                        location: "document", field: "type",
                        message: "missing; a GeoJSON FeatureCollection or Feature is expected")
                ]
            )
        }
        switch type {
        case "Feature":
            do {
                return ([try feature(root, location: "feature", timeZone: timeZone)], [])
            } catch {
                return ([], [error])
            }
        case "FeatureCollection":
            guard let features = root["features"]?.array else {
                return (
                    [],
                    [FlyerInputError(location: "document", field: "features", message: "must be an array of Features")]
                )
            }
            var flyers: [Flyer] = []
            var errors: [FlyerInputError] = []
            flyers.reserveCapacity(features.count)
            var ids = RepeatedIDCheck { "features[\($0)]" }
            for (index, element) in features.enumerated() where errors.count < errorLimit {
                do {
                    let flyer = try feature(element, location: "features[\(index)]", timeZone: timeZone)
                    try ids.record(flyer.id, at: index)
                    flyers.append(flyer)
                } catch {
                    errors.append(error)
                }
            }
            return (flyers, errors)
        default:
            return (
                [],
                [
                    FlyerInputError(
                        location: "document", field: "type",
                        message: "'\(type)' is not supported; give a FeatureCollection or a Feature")
                ]
            )
        }
    }

    /// One Feature as a flyer.
    static func feature(_ object: JSONValue, location: String, timeZone: TimeZone) throws(FlyerInputError) -> Flyer {
        guard object.isObject, object["type"]?.string == "Feature" else {
            throw FlyerInputError(
                location: location, field: "type", message: "must be a GeoJSON object with \"type\": \"Feature\"")
        }
        guard let geometryObject = object["geometry"], geometryObject.isObject else {
            throw FlyerInputError(
                location: location, field: "geometry", message: "missing; give a Point, Polygon or MultiPolygon")
        }
        let geometry = try self.geometry(geometryObject, location: location)
        let properties = object["properties"] ?? .null
        func text(_ key: String) throws(FlyerInputError) -> String? {
            switch properties[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case .number(let value)? where key == "radius_m" || key == "id": return Self.numberText(value)
            default:
                throw FlyerInputError(
                    location: location, field: "properties.\(key)",
                    message: key == "radius_m" ? "must be a number of metres" : "must be a string")
            }
        }
        var draft = FlyerDraft(
            title: try text("title"), description: try text("description"), address: try text("address"),
            category: try text("category"), url: try text("url"), radius: try text("radius_m"),
            validFrom: try text("valid_from"), validUntil: try text("valid_until"))
        switch object["id"] {
        case .string(let id)?: draft.id = id
        case .number(let id)?: draft.id = Self.numberText(id)
        default: draft.id = try text("id")
        }
        return try draft.flyer(geometry: geometry, location: location, timeZone: timeZone) { "properties.\($0)" }
    }

    private static func numberText(_ value: Double) -> String {
        JSONText.number(value)
    }

    static func geometry(_ object: JSONValue, location: String) throws(FlyerInputError) -> FlyerGeometry {
        let type = object["type"]?.string ?? ""
        func fail(_ path: String, _ message: String) -> FlyerInputError {
            FlyerInputError(location: location, field: "geometry.coordinates\(path)", message: message)
        }
        func position(_ value: JSONValue?, _ path: String) throws(FlyerInputError) -> Coordinate {
            guard let numbers = value?.array, numbers.count >= 2,
                let longitude = numbers[0].number, let latitude = numbers[1].number
            else { throw fail(path, "a position must be [longitude, latitude]") }
            do {
                return try GeometryReader.coordinate(longitude: longitude, latitude: latitude)
            } catch {
                throw fail(path, error.text)
            }
        }
        func rings(_ value: JSONValue?, _ path: String) throws(FlyerInputError) -> [[Coordinate]] {
            guard let list = value?.array, !list.isEmpty else {
                throw fail(path, "a polygon must be a non-empty array of rings")
            }
            var rings: [[Coordinate]] = []
            for (ringIndex, ringValue) in list.enumerated() {
                let ringPath = "\(path)[\(ringIndex)]"
                guard let positions = ringValue.array else {
                    throw fail(ringPath, "a ring must be an array of positions")
                }
                var ring: [Coordinate] = []
                for (index, value) in positions.enumerated() {
                    ring.append(try position(value, "\(ringPath)[\(index)]"))
                }
                do {
                    try GeometryReader.checkRing(ring)
                } catch {
                    throw fail(ringPath, error.text)
                }
                rings.append(ring)
            }
            return rings
        }
        let coordinates = object["coordinates"]
        switch type {
        case "Point":
            return .point(try position(coordinates, ""))
        case "Polygon":
            return .polygon(try rings(coordinates, ""))
        case "MultiPolygon":
            guard let list = coordinates?.array, !list.isEmpty else {
                throw fail("", "a MultiPolygon must be a non-empty array of polygons")
            }
            var polygons: [[[Coordinate]]] = []
            for (index, value) in list.enumerated() { polygons.append(try rings(value, "[\(index)]")) }
            return .multiPolygon(polygons)
        default:
            throw FlyerInputError(
                location: location, field: "geometry.type",
                message: "'\(type)' is not supported; use Point, Polygon or MultiPolygon")
        }
    }

    // MARK: Writing

    /// Writes a FeatureCollection, handing out text in chunks.
    package static func write<Flyers: Sequence>(_ flyers: Flyers, to output: (String) -> Void)
    where Flyers.Element == Flyer {
        output("{\"type\":\"FeatureCollection\",\"features\":[")
        var chunk = ""
        var first = true
        for flyer in flyers {
            if !first { chunk += "," }
            first = false
            chunk += "\n" + feature(flyer)
            if chunk.utf8.count > 1 << 16 {
                output(chunk)
                chunk = ""
            }
        }
        output(chunk + "\n]}\n")
    }

    /// One flyer as a GeoJSON Feature.
    package static func feature(_ flyer: Flyer) -> String {
        var properties = "\"title\":\(JSONText.string(flyer.title))"
        for (key, value) in [
            ("description", flyer.description), ("address", flyer.address), ("category", flyer.category),
            ("url", flyer.url)
        ] {
            if let value { properties += ",\"\(key)\":\(JSONText.string(value))" }
        }
        properties += ",\"radius_m\":\(JSONText.number(flyer.radiusM))"
        if let from = flyer.validFrom { properties += ",\"valid_from\":\"\(ISO8601.string(from: from))\"" }
        if let until = flyer.validUntil { properties += ",\"valid_until\":\"\(ISO8601.string(from: until))\"" }
        return
            "{\"type\":\"Feature\",\"id\":\(JSONText.string(flyer.id)),\"geometry\":\(geometry(flyer.geometry)),\"properties\":{\(properties)}}"
    }

    /// A geometry as GeoJSON text.
    package static func geometry(_ geometry: FlyerGeometry) -> String {
        func position(_ coordinate: Coordinate) -> String {
            "[\(JSONText.number(coordinate.longitude)),\(JSONText.number(coordinate.latitude))]"
        }
        func rings(_ rings: [[Coordinate]]) -> String {
            "[" + rings.map { "[" + $0.map(position).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        let coordinates: String
        switch geometry {
        case .point(let point): coordinates = position(point)
        case .polygon(let polygon): coordinates = rings(polygon)
        case .multiPolygon(let polygons): coordinates = "[" + polygons.map(rings).joined(separator: ",") + "]"
        }
        return "{\"type\":\"\(geometry.typeName)\",\"coordinates\":\(coordinates)}"
    }
}

/// JSON text pieces for hand-written output.
enum JSONText {
    /// A quoted, escaped JSON string.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The shortest text that reads back as exactly `value` (finite values only).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
