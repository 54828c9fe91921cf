import Foundation
import MeridianCore

/// Point flyers as CSV with the header
/// `id,title,lat,lon,category,address,description,url,radius_m,valid_from,valid_until`
/// (RFC 4180 quoting; columns may come in any order; `title`, `lat` and `lon` are required).
package enum CSVFlyers {
    package static let header = [
        "id", "title", "lat", "lon", "category", "address", "description", "url", "radius_m", "valid_from",
        "valid_until"
    ]

    /// Column names other tools write, with the column they mean.
    static let aliases = [
        "latitude": "lat", "longitude": "lon", "long": "lon", "lng": "lon", "name": "title",
        "radius": "radius_m", "from": "valid_from", "until": "valid_until"
    ]

    /// The column a header name means: one of `header` or an alias, in any case; nil for an unknown name.
    static func column(named name: String) -> String? {
        if header.contains(name) { return name }
        let lower = name.lowercased()
        return header.contains(lower) ? lower : aliases[lower]
    }

    /// Reads every row; any problem rejects the whole file, naming the line and the column. Bare dates are
    /// days in `timeZone` (the configured `time_zone`).
    package static func read(_ data: Data, timeZone: TimeZone = .gmt) throws(FlyerInputError) -> [Flyer] {
        try FlyerInputError.firstProblem(of: readAll(data, errorLimit: 1, timeZone: timeZone))
    }

    /// Reads every row, collecting up to `errorLimit` problems (each naming its line and column) instead of
    /// stopping at the first: for showing everything wrong with an uploaded file at once. A problem the reader
    /// cannot get past (the header, broken quoting) ends the reading.
    package static func readAll(_ data: Data, errorLimit: Int, timeZone: TimeZone = .gmt) -> (
        flyers: [Flyer], errors: [FlyerInputError]
    ) {
        var flyers: [Flyer] = []
        let errors = scan(data, errorLimit: errorLimit, timeZone: timeZone) { flyers.append($0) }
        return (flyers, errors)
    }

    /// Every problem of the file, in order, without keeping its flyers: what an import that failed lists.
    package static func problems(in data: Data, timeZone: TimeZone = .gmt) -> [FlyerInputError] {
        scan(data, errorLimit: .max, timeZone: timeZone) { _ in }
    }

    /// Hands every good row to `keep` and returns up to `errorLimit` problems.
    private static func scan(_ data: Data, errorLimit: Int, timeZone: TimeZone, keep: (Flyer) -> Void)
        -> [FlyerInputError]
    {
        var reader: CSVFlyerReader
        do {
            reader = try CSVFlyerReader(data, timeZone: timeZone)
        } catch {
            return [error]
        }
        var errors: [FlyerInputError] = []
        while errors.count < errorLimit {
            do {
                guard let flyer = try reader.next() else { break }
                keep(flyer)
            } catch {
                // The same place failing twice means the reader is stuck there.
                if errors.last?.location == error.location { break }
                errors.append(error)
            }
        }
        return errors
    }

    struct PointError: Error {
        var field: String
        var text: String
    }

    static func point(latitude: Double, longitude: Double) throws(PointError) -> Coordinate {
        guard (-90...90).contains(latitude) else {
            let hint = (-90...90).contains(longitude) ? "; are lat and lon swapped?" : ""
            throw PointError(field: "lat", text: "latitude \(latitude) is outside -90...90\(hint)")
        }
        guard (-180...180).contains(longitude) else {
            throw PointError(field: "lon", text: "longitude \(longitude) is outside -180...180")
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw PointError(field: "lat", text: error.description)
        }
    }

    /// Writes the header and one row per flyer; areas cannot be written (CSV holds points).
    package static func write<Flyers: Sequence>(_ flyers: Flyers, to output: (String) -> Void) throws(FlyerInputError)
    where Flyers.Element == Flyer {
        var chunk = header.joined(separator: ",") + "\n"
        for flyer in flyers {
            guard case .point(let point) = flyer.geometry else {
                throw FlyerInputError(
                    location: "flyer '\(flyer.id)'",
                    message:
                        "is a \(flyer.geometry.typeName); CSV holds points only, export as GeoJSON (--format geojson)")
            }
            let fields = [
                flyer.id, flyer.title, JSONText.number(point.latitude), JSONText.number(point.longitude),
                flyer.category ?? "", flyer.address ?? "", flyer.description ?? "", flyer.url ?? "",
                JSONText.number(flyer.radiusM), flyer.validFrom.map(ISO8601.string) ?? "",
                flyer.validUntil.map(ISO8601.string) ?? ""
            ]
            chunk += fields.map(quoted).joined(separator: ",") + "\n"
            if chunk.utf8.count > 1 << 16 {
                output(chunk)
                chunk = ""
            }
        }
        output(chunk)
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// RFC 4180 records with the line each starts on (quoted fields may span lines).
struct CSVRecords {
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1

    init(_ data: Data) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
    }

    /// How much of the input has been read, from 0 to 1.
    var fractionRead: Double {
        bytes.isEmpty ? 1 : Double(offset) / Double(bytes.count)
    }

    mutating func next() throws(FlyerInputError) -> (line: Int, fields: [String])? {
        guard offset < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") {
                        field.append(byte)
                        offset += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty:
                quoted = true
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(String(decoding: field, as: UTF8.self))
                return (startLine, fields)
            case UInt8(ascii: "\r"):
                continue
            default:
                field.append(byte)
            }
        }
        if quoted {
            throw FlyerInputError(
                location: "line \(startLine)", message: "a quoted field is not closed; end it with a double quote")
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return (startLine, fields)
    }
}
