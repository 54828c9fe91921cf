import Foundation
import MeridianCore

/// Reads the rows of a flyer CSV file (see `CSVFlyers`) one at a time.
package struct CSVFlyerReader: FlyerSource {
    private var records: CSVRecords
    private let fieldCount: Int
    private let id, title, category, address, description, url, radius, validFrom, validUntil: Int?
    private let latitude, longitude: Int
    /// How the header spells each column (`latitude` for `lat`), for messages.
    private let spelling: [String: String]
    private let timeZone: TimeZone
    private var ids = RepeatedIDCheck { "line \($0)" }

    /// Reads and checks the header line; bare dates are days in `timeZone` (the configured `time_zone`).
    package init(_ data: Data, timeZone: TimeZone = .gmt) throws(FlyerInputError) {
        records = CSVRecords(data)
        self.timeZone = timeZone
        let header = CSVFlyers.header.joined(separator: ",")
        guard let (headerLine, names) = try records.next() else {
            throw FlyerInputError(
                location: "line 1", message: "the file is empty; the first line must be the header \(header)")
        }
        var column: [String: Int] = [:]
        var spelling: [String: String] = [:]
        for (index, rawName) in names.enumerated() {
            let given = rawName.trimmedWhitespace
            guard let name = CSVFlyers.column(named: given) else {
                let hint = Suggestion.closest(to: given, in: CSVFlyers.header).map { "did you mean '\($0)'? " } ?? ""
                throw FlyerInputError(
                    location: "line \(headerLine)",
                    message: "unknown column '\(given)'; \(hint)the columns are \(header)")
            }
            if let earlier = spelling.updateValue(given, forKey: name) {
                let same = earlier == given ? "" : " (as '\(earlier)')"
                throw FlyerInputError(
                    location: "line \(headerLine)", message: "column '\(given)' appears twice\(same); keep one")
            }
            column[name] = index
        }
        self.spelling = spelling
        guard let title = column["title"], let latitude = column["lat"], let longitude = column["lon"] else {
            let missing = ["title", "lat", "lon"].first { column[$0] == nil } ?? "title"
            throw FlyerInputError(
                location: "line \(headerLine)", message: "missing column '\(missing)'; the header is \(header)")
        }
        fieldCount = names.count
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
        id = column["id"]
        category = column["category"]
        address = column["address"]
        description = column["description"]
        url = column["url"]
        radius = column["radius_m"]
        validFrom = column["valid_from"]
        validUntil = column["valid_until"]
    }

    package var fractionRead: Double { records.fractionRead }

    /// Every row's id is checked against the earlier rows (the error names both lines).
    package var rejectsRepeatedIDs: Bool { true }

    /// The flyer on the next non-empty line; any problem names the line and the column.
    package mutating func next() throws(FlyerInputError) -> Flyer? {
        while let (line, fields) = try records.next() {
            if fields.count == 1 && fields[0].isEmpty { continue }
            let flyer = try flyer(line: line, fields: fields)
            try ids.record(flyer.id, at: line)
            return flyer
        }
        return nil
    }

    private func flyer(line: Int, fields: [String]) throws(FlyerInputError) -> Flyer {
        guard fields.count == fieldCount else {
            throw FlyerInputError(
                location: "line \(line)",
                message:
                    "has \(Counted.string(fields.count, "field")), the header has \(fieldCount); quote fields that contain commas"
            )
        }
        func field(_ index: Int?) -> String? { index.map { fields[$0] } }
        func number(_ index: Int, _ name: String) throws(FlyerInputError) -> Double {
            let text = fields[index].trimmedWhitespace
            guard let value = Double(text) else {
                throw FlyerInputError(
                    location: "line \(line)", field: name,
                    message: "'\(text)' is not a number; give decimal degrees such as 48.8584")
            }
            return value
        }
        let lat = try number(latitude, named("lat")), lon = try number(longitude, named("lon"))
        let point: Coordinate
        do {
            point = try CSVFlyers.point(latitude: lat, longitude: lon)
        } catch {
            throw FlyerInputError(location: "line \(line)", field: named(error.field), message: error.text)
        }
        let draft = FlyerDraft(
            id: field(id), title: field(title), description: field(description), address: field(address),
            category: field(category), url: field(url), radius: field(radius),
            validFrom: field(validFrom), validUntil: field(validUntil))
        return try draft.flyer(geometry: .point(point), location: "line \(line)", timeZone: timeZone, names: named)
    }

    /// A column as the header spells it.
    private func named(_ column: String) -> String {
        spelling[column] ?? column
    }
}
