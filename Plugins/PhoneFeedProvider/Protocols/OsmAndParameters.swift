import Foundation

/// The OsmAnd protocol as Traccar's `OsmAndProtocolDecoder` reads it (traccar.org/osmand), used by Traccar Client and,
/// with its custom URL, GPSLogger:
/// - parameters (query or form body): `lat`, `lon` or `location=lat,lon`; `timestamp` in seconds, milliseconds or
///   ISO 8601; `speed` in knots (`speed_mps` in m/s, for GPSLogger's `%SPD`); `bearing` or `heading`; `altitude`;
///   `accuracy` (m); `hdop` (accepted, not turned into metres); `batt` (%); `id` or `deviceid` (ignored: the key names
///   the device).
/// - Traccar Client 9's JSON: `location.timestamp`, `location.coords.{latitude, longitude, accuracy, speed (m/s),
///   heading, altitude}`, `location.battery.level` (0...1) or `battery.level`, `device_id`.
enum OsmAndParameters {
    /// 1 knot in m/s.
    static let knot = 1852.0 / 3600.0

    /// The point given by query or form `parameters`.
    static func decode(_ parameters: [String: String]) -> DecodedPoint {
        var lat = LooseValue.number(parameters["lat"])
        var lon = LooseValue.number(parameters["lon"])
        if let location = parameters["location"] {
            let parts = location.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2 { (lat, lon) = (LooseValue.number(parts[0]), LooseValue.number(parts[1])) }
        }
        guard let lat, let lon else { return .rejected("no lat and lon (or location=lat,lon)") }
        guard let timestamp = parameters["timestamp"] else { return .rejected("no timestamp") }
        guard let time = LooseValue.time(timestamp) else {
            return .rejected("timestamp '\(timestamp)' is neither seconds, milliseconds nor ISO 8601")
        }
        let speed =
            LooseValue.nonNegative(parameters["speed_mps"])
            ?? LooseValue.nonNegative(parameters["speed"]).map { $0 * knot }
        return .point(
            PhonePoint(
                time: time, latitude: lat, longitude: lon, altitude: LooseValue.number(parameters["altitude"]),
                speed: speed,
                course: LooseValue.nonNegative(parameters["bearing"] ?? parameters["heading"]),
                accuracy: LooseValue.nonNegative(parameters["accuracy"]),
                battery: LooseValue.nonNegative(parameters["batt"]).map { $0 / 100 }))
    }

    /// The point in a Traccar Client 9 JSON body.
    static func decode(json body: Data) -> DecodedPoint {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let location = object["location"] as? [String: Any], let coords = location["coords"] as? [String: Any],
            let lat = LooseValue.number(coords["latitude"]), let lon = LooseValue.number(coords["longitude"])
        else {
            return .rejected("the JSON body has no location.coords.latitude and longitude")
        }
        guard let time = LooseValue.time(location["timestamp"]) else {
            return .rejected("the JSON body has no readable location.timestamp")
        }
        let battery = (location["battery"] as? [String: Any]) ?? (object["battery"] as? [String: Any])
        return .point(
            PhonePoint(
                time: time, latitude: lat, longitude: lon, altitude: LooseValue.number(coords["altitude"]),
                speed: LooseValue.nonNegative(coords["speed"]), course: LooseValue.nonNegative(coords["heading"]),
                accuracy: LooseValue.nonNegative(coords["accuracy"]),
                battery: LooseValue.nonNegative(battery?["level"])))
    }

    /// `a=1&b=2` form or query text as parameters (`+` is a space); a name given twice keeps its first value.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if result[parts[0]] == nil { result[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return result
    }
}
