import Foundation
import MeridianCore

/// Flyer fields as read from GeoJSON properties, a CSV row or a request, before validation.
struct FlyerDraft {
    var id: String?
    var title: String?
    var description: String?
    var address: String?
    var category: String?
    var url: String?
    var radius: String?
    var validFrom: String?
    var validUntil: String?

    /// The largest accepted `radius_m`.
    static let maximumRadius = 100_000.0

    /// Validates the fields; `names` maps field names to how the input spells them (for messages). A bare date
    /// (`2030-12-31`) is a day in `timeZone` (the configured `time_zone`): `valid_from` starts at its beginning,
    /// `valid_until` lasts to its end; date-times carry their own offset.
    func flyer(
        geometry: FlyerGeometry, location: @autoclosure () -> String, timeZone: TimeZone,
        names: (String) -> String
    ) throws(FlyerInputError) -> Flyer {
        func fail(_ field: String, _ message: String) -> FlyerInputError {
            FlyerInputError(location: location(), field: names(field), message: message)
        }
        let id = id.flatMap(Self.nonBlank) ?? Flyer.generateID()
        do {
            try ResourceID.check(id)
        } catch {
            throw FlyerInputError(
                location: location(), field: names("id"), message: error.description, kind: .invalidID)
        }
        guard let title = title.flatMap(Self.nonBlank) else {
            throw fail("title", "missing title; every flyer needs a non-empty title")
        }
        var radiusM = Flyer.defaultRadius
        if let text = radius.flatMap(Self.nonBlank) {
            guard let value = Double(text), value.isFinite, value > 0, value <= Self.maximumRadius else {
                throw fail(
                    "radius_m",
                    "'\(text)' is not a radius; give metres as a number above 0 and at most \(Int(Self.maximumRadius))")
            }
            radiusM = value
        }
        let description = description.flatMap(Self.nonBlank), address = address.flatMap(Self.nonBlank)
        let category = category.flatMap(Self.nonBlank), url = url.flatMap(Self.nonBlank)
        for (field, text, limit) in [
            ("title", title, Flyer.titleLimit), ("description", description, Flyer.descriptionLimit),
            ("address", address, Flyer.addressLimit), ("category", category, Flyer.categoryLimit),
            ("url", url, Flyer.urlLimit)
        ] {
            guard let text else { continue }
            if let problem = limit.problem(text) { throw fail(field, "\(problem); shorten it") }
            // SQLite keeps text only up to a NUL: refused rather than cut short.
            if text.utf8.contains(0) {
                throw fail(field, "contains a NUL character (U+0000), which the database cannot keep; remove it")
            }
        }
        let from = try date(validFrom, field: "valid_from", timeZone: timeZone, fail: fail)
        let until = try date(validUntil, field: "valid_until", timeZone: timeZone, fail: fail)
        if let from, let until, from > until {
            throw fail("valid_until", "is before valid_from; the flyer would never be valid")
        }
        return Flyer(
            id: id, title: title, description: description, address: address, category: category,
            url: url, radiusM: radiusM, validFrom: from, validUntil: until, geometry: geometry)
    }

    private func date(
        _ text: String?, field: String, timeZone: TimeZone,
        fail: (String, String) -> FlyerInputError
    ) throws(FlyerInputError) -> Date? {
        guard let text = text.flatMap(Self.nonBlank) else { return nil }
        if let day = LocalDay.bounds(of: text, in: timeZone) {
            // The day's last millisecond: bounds are included, and exports write milliseconds.
            return field == "valid_until" ? day.end.addingTimeInterval(-0.001) : day.start
        }
        guard let date = ISO8601.date(from: text) else {
            throw fail(
                field, "'\(text)' is not an ISO 8601 date or date-time such as 2024-05-01 or 2024-05-01T18:00:00Z")
        }
        return date
    }

    static func nonBlank(_ text: String) -> String? {
        let trimmed = text.trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// Builds and checks geometries from GeoJSON positions (`[lon, lat]`).
enum GeometryReader {
    /// A validated coordinate from longitude and latitude, with a hint when they look swapped.
    static func coordinate(longitude: Double, latitude: Double) throws(CoordinateMessage) -> Coordinate {
        guard latitude.isFinite, longitude.isFinite else {
            throw CoordinateMessage("coordinates must be finite numbers")
        }
        guard (-90...90).contains(latitude) else {
            let hint =
                (-90...90).contains(longitude)
                ? "; positions are [longitude, latitude] (lon first): are they swapped?" : ""
            throw CoordinateMessage("latitude \(latitude) is outside -90...90\(hint)")
        }
        guard (-180...180).contains(longitude) else {
            throw CoordinateMessage("longitude \(longitude) is outside -180...180")
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw CoordinateMessage(error.description)
        }
    }

    /// Checks a ring: at least 4 positions, first equal to last.
    static func checkRing(_ ring: [Coordinate]) throws(CoordinateMessage) {
        guard ring.count >= 4 else {
            throw CoordinateMessage("a ring needs at least 4 positions (a closed triangle), got \(ring.count)")
        }
        guard ring.first == ring.last else {
            throw CoordinateMessage("the ring is not closed: its last position must repeat the first")
        }
    }
}

/// A geometry problem's text; the reader adds where it happened.
struct CoordinateMessage: Error {
    var text: String
    init(_ text: String) { self.text = text }
}
