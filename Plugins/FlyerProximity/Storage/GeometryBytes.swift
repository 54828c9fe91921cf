import MeridianCore

/// The little-endian pieces that Well-Known Binary and SpatiaLite's column format share: numbers,
/// positions (longitude, latitude) and a polygon body (ring count, then per ring its point count
/// and points).
enum GeometryBytes {
    static func appendPolygon(_ rings: [[Coordinate]], to bytes: inout [UInt8]) {
        append(UInt32(rings.count), to: &bytes)
        for ring in rings {
            append(UInt32(ring.count), to: &bytes)
            for coordinate in ring { append(coordinate, to: &bytes) }
        }
    }

    /// A polygon count, then each polygon as `marker`, the Polygon class (3) and its body.
    static func appendPolygons(_ polygons: [[[Coordinate]]], marker: UInt8, to bytes: inout [UInt8]) {
        append(UInt32(polygons.count), to: &bytes)
        for rings in polygons {
            bytes.append(marker)
            append(UInt32(3), to: &bytes)
            appendPolygon(rings, to: &bytes)
        }
    }

    static func append(_ coordinate: Coordinate, to bytes: inout [UInt8]) {
        append(coordinate.longitude, to: &bytes)
        append(coordinate.latitude, to: &bytes)
    }

    static func append(_ value: Double, to bytes: inout [UInt8]) {
        append(value.bitPattern, to: &bytes)
    }

    static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
