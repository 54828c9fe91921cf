import Foundation
import MeridianCore

/// The text values of one GPX track point or TCX trackpoint, under the names the reader
/// gives them, and their checked conversion.
struct XMLPoint {
    /// Line where the point starts.
    let line: Int
    var values: [String: String] = [:]

    init(line: Int) {
        self.line = line
    }

    /// Keeps the first value seen under `key`.
    mutating func set(_ key: String, _ text: String) {
        if values[key] == nil { values[key] = text }
    }

    /// A warning located at this point.
    func problem(_ file: String, _ text: String) -> ActivityFileError {
        ActivityFileError(file: file, line: line, message: text)
    }

    /// `key` as a finite number (≥ 0 when `nonNegative`); a value that is not one is left out,
    /// counted as `invalid_values` and reported on `activity`.
    func number(_ key: String, nonNegative: Bool = false, file: String, activity: inout RecordedActivity) -> Double? {
        guard let text = values[key] else { return nil }
        guard let value = Double(text), value.isFinite, !nonNegative || value >= 0 else {
            activity.skip("invalid_values")
            activity.warn(
                problem(file, "\(key) '\(text)' is not a\(nonNegative ? " non-negative" : "") number; value ignored"))
            return nil
        }
        return value
    }

    /// The point's time from `key`; nil (counted, and reported when present but unreadable) when it has none.
    func time(_ key: String, file: String, activity: inout RecordedActivity) -> Date? {
        guard let text = values[key] else {
            activity.skip("points_without_time")
            return nil
        }
        guard let time = ISO8601.date(from: text) else {
            activity.skip("invalid_points")
            activity.warn(
                problem(
                    file,
                    "point has time '\(text)', which is not an ISO 8601 date-time such as 2024-05-01T07:30:00Z; point skipped"
                ))
            return nil
        }
        return time
    }

    /// The position from the `latitude` and `longitude` values; nil (counted as
    /// `invalid_points` and reported) when they are present but not a valid position.
    func coordinate(file: String, required: Bool, activity: inout RecordedActivity) -> (Coordinate?, valid: Bool) {
        let latitudeText = values["latitude"], longitudeText = values["longitude"]
        if latitudeText == nil && longitudeText == nil && !required { return (nil, true) }
        guard let latitudeText, let longitudeText, let latitude = Double(latitudeText),
            let longitude = Double(longitudeText)
        else {
            activity.skip("invalid_points")
            activity.warn(
                problem(
                    file,
                    "point has no valid position (lat=\(latitudeText ?? "none"), lon=\(longitudeText ?? "none")); point skipped"
                ))
            return (nil, false)
        }
        do {
            return (try Coordinate(latitude: latitude, longitude: longitude), true)
        } catch {
            activity.skip("invalid_points")
            activity.warn(problem(file, "point position is invalid: \(error); point skipped"))
            return (nil, false)
        }
    }
}
