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

    /// Appends `flyer` as one COPY text line (with its newline) to `buffer`; `scratch` and `words` (which keeps the
    /// letters it has folded) are reused between calls.
    static func appendCopyLine(
        _ flyer: Flyer, to buffer: inout ByteBuffer, scratch: inout [UInt8], words: inout SearchWords
    ) {
        appendField(flyer.id, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        appendField(flyer.title, to: &buffer)
        for value in [flyer.description, flyer.address, flyer.category, flyer.category?.lowercased(), flyer.url] {
            buffer.writeInteger(UInt8(ascii: "\t"))
            appendField(value, to: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "\t"))
        buffer.writeString(flyer.radiusM.description)
        for date in [flyer.validFrom, flyer.validUntil] {
            buffer.writeInteger(UInt8(ascii: "\t"))
            buffer.writeString(date.map { $0.timeIntervalSince1970.description } ?? "\\N")
        }
        buffer.writeInteger(UInt8(ascii: "\t"))
        WKB.encode(flyer.geometry, into: &scratch)
        appendHex(scratch, to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\t"))
        if let boxes = searchBoxes(flyer.geometry) {
            WKB.encode(boxes, into: &scratch)
            // EWKB: the SRID the column's type names, after the byte order and the type (with its SRID flag).
            scratch[4] |= 0x20
            scratch.insert(contentsOf: [0xE6, 0x10, 0x00, 0x00], at: 5)
            appendHex(scratch, to: &buffer)
        } else {
            buffer.writeString("\\N")
        }
        buffer.writeInteger(UInt8(ascii: "\t"))
        appendField(words.stored(flyer), to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\n"))
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

    /// `value` as COPY text: `\N` for nil, backslash, tab, newline and carriage return escaped (bytes no UTF-8
    /// sequence of another character contains).
    private static func appendField(_ value: String?, to buffer: inout ByteBuffer) {
        guard var value else {
            buffer.writeString("\\N")
            return
        }
        value.withUTF8 { bytes in
            var plain = 0
            for (offset, byte) in bytes.enumerated() {
                let escape: StaticString
                switch byte {
                case 0x5C: escape = "\\\\"
                case 0x09: escape = "\\t"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                default: continue
                }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[plain..<offset])))
                buffer.writeStaticString(escape)
                plain = offset + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[plain...])))
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendHex(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bytes.count * 2) { output in
            for (offset, byte) in bytes.enumerated() {
                output[2 * offset] = hexDigits[Int(byte >> 4)]
                output[2 * offset + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
