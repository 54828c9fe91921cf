import Foundation

/// OwnTracks HTTP mode: one JSON object per POST (`_type: location` carries a fix; other types are ignored).
/// Fields (owntracks.org/booklet/tech/json): `lat`, `lon`, `tst` (s), `acc`, `alt`, `vac` (m), `vel` (km/h),
/// `cog` (degrees), `batt` (%).
enum OwnTracksMessage {
    /// The points in `body`: none for an empty body or another `_type`, one rejection for anything unreadable.
    static func decode(_ body: Data) -> [DecodedPoint] {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return [] }
        guard let object = try? JSONSerialization.jsonObject(with: body) else { return [.rejected("the body is not JSON")] }
        let messages = (object as? [[String: Any]]) ?? (object as? [String: Any]).map { [$0] }
        guard let messages else { return [.rejected("the body is not a JSON object")] }
        return messages.compactMap { message in
            guard message["_type"] as? String == "location" else { return nil }
            guard let lat = LooseValue.number(message["lat"]), let lon = LooseValue.number(message["lon"]) else {
                return .rejected("a location without lat and lon")
            }
            guard let time = LooseValue.time(message["tst"]) else { return .rejected("a location without tst") }
            return .point(PhonePoint(time: time, latitude: lat, longitude: lon, altitude: LooseValue.number(message["alt"]),
                                     speed: LooseValue.nonNegative(message["vel"]).map { $0 / 3.6 },
                                     course: LooseValue.nonNegative(message["cog"]),
                                     accuracy: LooseValue.nonNegative(message["acc"]),
                                     verticalAccuracy: LooseValue.nonNegative(message["vac"]),
                                     battery: LooseValue.nonNegative(message["batt"]).map { $0 / 100 }))
        }
    }
}
