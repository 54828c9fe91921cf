import Foundation
import MeridianCore
import PostgresNIO

/// Flyer rows in PostGIS: the columns read back, and each flyer as a line of `COPY … FROM STDIN`
/// text (tab-separated, `\N` for NULL, geometry as hex WKB, the search boxes as hex EWKB with SRID 4326, which
/// PostGIS's input functions read).
enum PostGISRows {
    /// The columns of `flyers` that make a flyer, the geometry as WKB last.
    static let selectColumns =
        "id, title, description, address, category, url, radius_m, valid_from, valid_until, ST_AsBinary(geog)"
    /// The columns a write provides, in the order of `appendCopyLine`.
    static let writeColumns = [
        "id", "title", "description", "address", "category", "category_key", "url", "radius_m", "valid_from",
        "valid_until", "geog", "search_boxes", "words"
    ]

    typealias Columns = (String, String, String?, String?, String?, String?, Double, Double?, Double?, ByteBuffer)

    /// The flyer of a row of `selectColumns`.
    static func flyer(_ row: PostgresRow) throws(FlyerStoreError) -> Flyer {
        let columns: Columns
        do {
            columns = try row.decode(Columns.self)
        } catch {
            let id = (try? row.decode((String).self, context: .default)) ?? "?"
            throw .unreadableRow(id: id, detail: "a column has an unexpected type or is missing")
        }
        var wkb = columns.9
        guard let bytes = wkb.readBytes(length: wkb.readableBytes), let geometry = WKB.decode(Data(bytes)) else {
            throw .unreadableRow(id: columns.0, detail: "the geometry is not a valid Point, Polygon or MultiPolygon")
        }
        return Flyer(
            id: columns.0, title: columns.1, description: columns.2, address: columns.3, category: columns.4,
            url: columns.5,
            radiusM: columns.6, validFrom: columns.7.map(Date.init(timeIntervalSince1970:)),
            validUntil: columns.8.map(Date.init(timeIntervalSince1970:)), geometry: geometry)
    }

    /// Appends `flyer` as one COPY text line (with its newline); `scratch` is reused between calls.
    static func appendCopyLine(_ flyer: Flyer, to text: inout String, scratch: inout [UInt8]) {
        appendField(flyer.id, to: &text)
        text.append("\t")
        appendField(flyer.title, to: &text)
        for value in [flyer.description, flyer.address, flyer.category, flyer.category?.lowercased(), flyer.url] {
            text.append("\t")
            appendField(value, to: &text)
        }
        text.append("\t")
        text.append(flyer.radiusM.description)
        for date in [flyer.validFrom, flyer.validUntil] {
            text.append("\t")
            if let date { text.append(date.timeIntervalSince1970.description) } else { text.append("\\N") }
        }
        text.append("\t")
        WKB.encode(flyer.geometry, into: &scratch)
        appendHex(scratch, to: &text)
        text.append("\t")
        if let boxes = searchBoxes(flyer.geometry) {
            WKB.encode(boxes, into: &scratch)
            // EWKB: the SRID the column's type names, after the byte order and the type (with its SRID flag).
            scratch[4] |= 0x20
            scratch.insert(contentsOf: [0xE6, 0x10, 0x00, 0x00], at: 5)
            appendHex(scratch, to: &text)
        } else {
            text.append("\\N")
        }
        text.append("\t")
        var words = SearchWords()
        appendField(words.stored(flyer), to: &text)
        text.append("\n")
    }

    /// For an area, Meridian's own boxes around it (exact latitude limits of geodesic edges, split
    /// at ±180°, the pole's cap for rings around a pole) as a MultiPolygon; nil for a point.
    static func searchBoxes(_ geometry: FlyerGeometry) -> FlyerGeometry? {
        guard case .point = geometry else {
            guard let shape = AreaShape(geometry.polygons) else { return nil }
            let boxes = shape.boxes.map { box in
                let corners = [
                    (box.minLongitude, box.minLatitude), (box.maxLongitude, box.minLatitude),
                    (box.maxLongitude, box.maxLatitude),
                    (box.minLongitude, box.maxLatitude), (box.minLongitude, box.minLatitude)
                ]
                return [corners.compactMap { try? Coordinate(latitude: $0.1, longitude: $0.0) }]
            }
            return .multiPolygon(boxes)
        }
        return nil
    }

    private static func appendField(_ value: String?, to text: inout String) {
        guard let value else {
            text.append("\\N")
            return
        }
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            text.append(value)
            return
        }
        for character in value.unicodeScalars {
            switch character {
            case "\\": text.append("\\\\")
            case "\t": text.append("\\t")
            case "\n": text.append("\\n")
            case "\r": text.append("\\r")
            default: text.unicodeScalars.append(character)
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    private static func appendHex(_ bytes: [UInt8], to text: inout String) {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(hexDigits[Int(byte >> 4)])
            scalars.append(hexDigits[Int(byte & 0x0F)])
        }
        text.unicodeScalars.append(contentsOf: scalars)
    }
}
