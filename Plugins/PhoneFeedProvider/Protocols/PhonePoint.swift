import Foundation
import MeridianCore

/// One position as a phone app reported it, in SI units, before Meridian checks it.
package struct PhonePoint: Sendable, Equatable {
    package var time: Date
    package var latitude: Double
    package var longitude: Double
    package var altitude: Double?
    /// m/s.
    package var speed: Double?
    /// Degrees true.
    package var course: Double?
    /// Metres.
    package var accuracy: Double?
    package var verticalAccuracy: Double?
    /// 0...1.
    package var battery: Double?

    /// Above this a reported speed is absurd for a phone carried by a person (about the speed of sound).
    static let maximumSpeed = 340.0

    /// Why the point cannot be used, or `nil`.
    var problem: String? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            return "coordinates out of range (lat \(latitude), lon \(longitude))"
        }
        if let speed, !speed.isFinite || speed > Self.maximumSpeed { return "absurd speed \(speed) m/s" }
        return nil
    }

    /// The fix this point gives provider `providerID`.
    func fix(providerID: String) -> Fix? {
        guard let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return Fix(
            time: time, coordinate: coordinate, altitudeMSL: altitude, speed: speed, course: course,
            horizontalAccuracy: accuracy, verticalAccuracy: verticalAccuracy,
            mode: altitude == nil ? .twoD : .threeD, providerID: providerID)
    }
}

/// What a decoder made of one reported point: a point to check, or why it was refused.
package enum DecodedPoint: Sendable, Equatable {
    case point(PhonePoint)
    case rejected(String)
}

/// Reading loosely typed JSON and form values the way the apps send them.
enum LooseValue {
    /// A number given as a JSON number or a numeric string; NaN and infinities stay as they are, to be refused.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A measurement the apps mark as unknown with a negative value (iOS: -1).
    static func nonNegative(_ value: Any?) -> Double? {
        number(value).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A time as seconds or milliseconds since 1970 (numbers above 1e11 are milliseconds) or ISO 8601
    /// (with or without fractions, `Z`, `+02:00` or `-0700`; MeridianCore's parser, far faster than Foundation's).
    static func time(_ value: Any?) -> Date? {
        if let seconds = number(value) {
            guard seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds > 1e11 ? seconds / 1000 : seconds)
        }
        return (value as? String).flatMap(ISO8601.date(from:))
    }
}
