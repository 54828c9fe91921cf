import Foundation
import MeridianCore

/// A new item or a change to one: the body of `POST /v1/gear` and `PATCH /v1/gear/{id}` (`name`, `activity`,
/// `start_distance_m`, `retire_distance_m` (`null` removes it), `default`, `retired`), and what `meridian gear add`
/// builds. A field left out stays as it is; any other key is an error.
package struct GearChange: Sendable, Equatable, Decodable {
    package var name: String?
    package var activity: Activity?
    package var startDistance: Double?
    /// `.some(nil)` removes the retirement distance.
    package var retireDistance: Double??
    package var isDefault: Bool?
    package var retired: Bool?

    package init(
        name: String? = nil, activity: Activity? = nil, startDistance: Double? = nil, retireDistance: Double?? = nil,
        isDefault: Bool? = nil, retired: Bool? = nil
    ) {
        self.name = name
        self.activity = activity
        self.startDistance = startDistance
        self.retireDistance = retireDistance
        self.isDefault = isDefault
        self.retired = retired
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SegmentRequest.Key.self)
        let allowed = ["name", "activity", "startDistanceM", "retireDistanceM", "default", "retired"]
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw GearError.invalid(
                field: "body",
                message:
                    "unknown key '\(unknown.stringValue)'; gear takes name, activity, start_distance_m, retire_distance_m, default and retired"
            )
        }
        name = try container.decodeIfPresent(String.self, forKey: .init("name"))
        if let text = try container.decodeIfPresent(String.self, forKey: .init("activity")) {
            activity = try Self.activity(text)
        }
        startDistance = try container.decodeIfPresent(Double.self, forKey: .init("startDistanceM"))
        let retire = SegmentRequest.Key("retireDistanceM")
        if container.contains(retire) {
            retireDistance = .some(try container.decodeIfPresent(Double.self, forKey: retire))
        }
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .init("default"))
        retired = try container.decodeIfPresent(Bool.self, forKey: .init("retired"))
    }

    /// The activity named `text`, or an error listing the activities.
    package static func activity(_ text: String) throws(GearError) -> Activity {
        guard let activity = Activity(rawValue: text) else {
            throw .invalid(
                field: "activity",
                message:
                    "'\(text)' is not an activity; use one of \(Activity.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return activity
    }

    /// The name trimmed, 1–100 characters.
    static func checkedName(_ name: String) throws(GearError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100 else {
            throw .invalid(field: "name", message: "give a name of 1 to 100 characters")
        }
        guard Int64(trimmed) == nil else {
            throw .invalid(
                field: "name", message: "'\(trimmed)' is a number, which would read as a gear id; add a word")
        }
        return trimmed
    }

    /// A distance in metres: finite and at least 0 (more than 0 for a retirement distance).
    static func checkedDistance(_ metres: Double, field: String, positive: Bool) throws(GearError) -> Double {
        guard metres.isFinite, positive ? metres > 0 : metres >= 0, metres < 1e9 else {
            throw .invalid(
                field: field,
                message: "\(metres) is not a distance in metres \(positive ? "above" : "of at least") 0")
        }
        return metres
    }
}
