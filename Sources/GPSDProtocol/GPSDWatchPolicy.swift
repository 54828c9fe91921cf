import Foundation

/// What a client asked for with `?WATCH={…}`; keys it leaves out keep their value, as in gpsd.
public struct GPSDWatchPolicy: Sendable, Equatable {
    /// Streaming is on.
    public var enable = false
    /// TPV/SKY reports.
    public var json = false
    /// NMEA sentences.
    public var nmea = false
    /// 1 or 2: the device's own sentences (Meridian sends NMEA for both).
    public var raw = 0
    public var scaled = false
    public var timing = false
    /// Accepted for AIS clients; Meridian has no AIS.
    public var split24 = false
    /// Accepted; Meridian sends no PPS reports, so it is always answered false.
    public var pps = false
    /// Only this device (provider) when set; the fused fix otherwise.
    public var device: String?

    public init() {}

    /// Applies the JSON object of a `?WATCH=` request; throws gpsd's reason when it is not one gpsd accepts.
    public mutating func apply(json text: Substring) throws(GPSDRequestError) {
        guard let object = try? JSONDecoder().decode([String: GPSDJSONValue].self, from: Data(text.utf8)) else {
            throw .invalid("WATCH", reason: "input was not a JSON object")
        }
        var updated = self
        for (key, value) in object {
            switch (key, value) {
            case ("enable", .bool(let flag)): updated.enable = flag
            case ("json", .bool(let flag)): updated.json = flag
            case ("nmea", .bool(let flag)): updated.nmea = flag
            case ("raw", .integer(let level)) where (0...2).contains(level): updated.raw = level
            case ("scaled", .bool(let flag)): updated.scaled = flag
            case ("timing", .bool(let flag)): updated.timing = flag
            case ("split24", .bool(let flag)): updated.split24 = flag
            case ("pps", .bool): break
            case ("device", .string(let path)): updated.device = path.isEmpty ? nil : path
            case ("remote", .string): break
            case ("enable", _), ("json", _), ("nmea", _), ("scaled", _), ("timing", _), ("split24", _), ("pps", _):
                throw .invalid("WATCH", reason: "saw quoted value when expecting nonstring")
            case ("raw", _): throw .invalid("WATCH", reason: "error while parsing integer")
            case ("device", _), ("remote", _): throw .invalid("WATCH", reason: "error while parsing string")
            default: throw .invalid("WATCH", reason: "unknown attribute name")
            }
        }
        self = updated
    }
}

/// One value of a request's JSON object, by kind.
enum GPSDJSONValue: Decodable {
    case bool(Bool)
    case integer(Int)
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .other
        }
    }
}

/// A request gpsd did not accept, with gpsd's own words.
public enum GPSDRequestError: Error, Equatable {
    case invalid(String, reason: String)

    /// The `ERROR` message gpsd sends, e.g. "Invalid WATCH: unknown attribute name".
    public var message: String {
        switch self {
        case .invalid(let request, let reason): return "Invalid \(request): \(reason)"
        }
    }
}
