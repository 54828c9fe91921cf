import Foundation

/// OwnTracks HTTP mode: one JSON object per POST (`_type: location` carries a fix; other types are ignored).
/// Fields (owntracks.org/booklet/tech/json): `lat`, `lon`, `tst` (s), `acc`, `alt`, `vac` (m), `vel` (km/h),
/// `cog` (degrees), `batt` (%), `m` (the monitoring mode the phone is in: 1 significant, 2 move).
struct OwnTracksMessage {
    /// The points: none for an empty body or another `_type`, one rejection for anything unreadable.
    var points: [DecodedPoint]
    /// The monitoring mode (`m`) of the last location message that has one.
    var mode: Int?

    /// Reads one POSTed body.
    static func decode(_ body: Data) -> OwnTracksMessage {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            return .init(points: [])
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) else {
            return .init(points: [.rejected("the body is not JSON")])
        }
        let messages = (object as? [[String: Any]]) ?? (object as? [String: Any]).map { [$0] }
        guard let messages else { return .init(points: [.rejected("the body is not a JSON object")]) }
        let locations = messages.filter { $0["_type"] as? String == "location" }
        return OwnTracksMessage(
            points: locations.map(point),
            mode: locations.compactMap { LooseValue.number($0["m"]).flatMap { Int(exactly: $0) } }.last)
    }

    private static func point(_ message: [String: Any]) -> DecodedPoint {
        guard let lat = LooseValue.number(message["lat"]), let lon = LooseValue.number(message["lon"]) else {
            return .rejected("a location without lat and lon")
        }
        guard let time = LooseValue.time(message["tst"]) else { return .rejected("a location without tst") }
        return .point(
            PhonePoint(
                time: time, latitude: lat, longitude: lon, altitude: LooseValue.number(message["alt"]),
                speed: LooseValue.nonNegative(message["vel"]).map { $0 / 3.6 },
                course: LooseValue.nonNegative(message["cog"]),
                accuracy: LooseValue.nonNegative(message["acc"]),
                verticalAccuracy: LooseValue.nonNegative(message["vac"]),
                battery: LooseValue.nonNegative(message["batt"]).map { $0 / 100 }))
    }
}
