import Foundation

/// Overland (github.com/aaronpk/Overland-iOS): `{"locations": [GeoJSON Point features]}` whose properties hold
/// `timestamp` (ISO 8601), `altitude`, `speed` (m/s), `course`, `horizontal_accuracy`, `vertical_accuracy` (-1:
/// unknown) and `battery_level` (0...1).
enum OverlandBatch {
    /// The points of `body`; a feature that cannot be read is a rejection, the rest of the batch is kept.
    static func decode(_ body: Data) -> [DecodedPoint] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let locations = object["locations"] as? [Any]
        else {
            return [.rejected("the body is not an Overland batch ({\"locations\": [...]})")]
        }
        return locations.map { item in
            guard let feature = item as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
                let coordinates = geometry["coordinates"] as? [Any], coordinates.count >= 2,
                let lon = LooseValue.number(coordinates[0]), let lat = LooseValue.number(coordinates[1])
            else {
                return .rejected("a location without Point coordinates")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard let time = LooseValue.time(properties["timestamp"]) else {
                return .rejected("a location without a readable timestamp")
            }
            return .point(
                PhonePoint(
                    time: time, latitude: lat, longitude: lon, altitude: LooseValue.number(properties["altitude"]),
                    speed: LooseValue.nonNegative(properties["speed"]),
                    course: LooseValue.nonNegative(properties["course"]),
                    accuracy: LooseValue.nonNegative(properties["horizontal_accuracy"]),
                    verticalAccuracy: LooseValue.nonNegative(properties["vertical_accuracy"]),
                    battery: LooseValue.nonNegative(properties["battery_level"])))
        }
    }
}
