import Foundation
import MeridianCore

/// A new segment: its name and the stretch of a saved run it follows, given by the run's distance (kilometres
/// from its start) or by two points near the run's path.
package struct SegmentRequest: Sendable, Equatable, Decodable {
    package enum Bounds: Sendable, Equatable {
        /// From `from` to `to` kilometres of the run's distance.
        case kilometres(from: Double, to: Double)
        /// From the run's point nearest `from` to its next point nearest `to`.
        case points(from: Coordinate, to: Coordinate)
    }

    package var name: String
    package var runID: String
    package var bounds: Bounds

    package init(name: String, runID: String, bounds: Bounds) {
        self.name = name
        self.runID = runID
        self.bounds = bounds
    }

    /// The body of `POST /v1/segments`: `{"name", "run_id", "from_km", "to_km"}` or `{"name", "run_id", "from": "LAT,LON",
    /// "to": "LAT,LON"}`; any other key is an error.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let allowed = ["name", "runId", "fromKm", "toKm", "from", "to"]
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw ProgressError.invalid(
                field: "body",
                message:
                    "unknown key '\(unknown.stringValue)'; a segment takes name, run_id and either from_km and to_km or from and to"
            )
        }
        name = try container.decode(String.self, forKey: Key("name"))
        runID = try container.decode(String.self, forKey: Key("runId"))
        let fromKm = try container.decodeIfPresent(Double.self, forKey: Key("fromKm"))
        let toKm = try container.decodeIfPresent(Double.self, forKey: Key("toKm"))
        let from = try container.decodeIfPresent(String.self, forKey: Key("from"))
        let to = try container.decodeIfPresent(String.self, forKey: Key("to"))
        bounds = try Self.bounds(
            fromKm: fromKm, toKm: toKm, from: from, to: to, names: ("from_km", "to_km", "from", "to"))
    }

    /// Bounds from either pair of values (`names` are how the caller calls them, for messages).
    package static func bounds(
        fromKm: Double?, toKm: Double?, from: String?, to: String?,
        names: (fromKm: String, toKm: String, from: String, to: String)
    ) throws -> Bounds {
        switch (fromKm, toKm, from, to) {
        case (let fromKm?, let toKm?, nil, nil):
            return .kilometres(from: fromKm, to: toKm)
        case (nil, nil, let from?, let to?):
            do {
                return .points(from: try Coordinate(parsing: from), to: try Coordinate(parsing: to))
            } catch {
                throw ProgressError.invalid(field: "\(names.from)/\(names.to)", message: error.description)
            }
        default:
            throw ProgressError.invalid(
                field: "bounds",
                message:
                    "give either \(names.fromKm) and \(names.toKm) (kilometres of the run) or \(names.from) and \(names.to) (LAT,LON near the run's path), not a mix"
            )
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
