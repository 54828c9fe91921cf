import MeridianCore

/// A flyer's geometry in SpatiaLite's own column format ("BLOB-Geometry"), little-endian, XY:
/// start byte 0x00, endianness byte 0x01, SRID (int32), the bounding box (min x, min y, max x,
/// max y as doubles), 0x7C, the class (int32: 1 Point, 3 Polygon, 6 MultiPolygon), the body,
/// end byte 0xFE. A Polygon body is its ring count, then per ring the point count and the
/// points; a MultiPolygon body is its polygon count, then per polygon 0x69, the class 3 and a
/// Polygon body. The bounding box covers the exterior rings, as SpatiaLite computes it.
///
/// Writing the column bytes directly spares every row of a bulk import a round trip through
/// `GeomFromWKB`; the bytes are the same as those `GeomFromWKB` makes from the same geometry.
enum SpatiaLiteBlob {
    private static let point: UInt32 = 1
    private static let polygon: UInt32 = 3
    private static let multiPolygon: UInt32 = 6

    /// Replaces the contents of `bytes` with `geometry` in SRID `srid`.
    static func encode(_ geometry: FlyerGeometry, srid: Int32, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(0x00)
        bytes.append(0x01)
        GeometryBytes.append(UInt32(bitPattern: srid), to: &bytes)
        switch geometry {
        case .point(let coordinate):
            for value in [coordinate.longitude, coordinate.latitude, coordinate.longitude, coordinate.latitude] {
                GeometryBytes.append(value, to: &bytes)
            }
            bytes.append(0x7C)
            GeometryBytes.append(point, to: &bytes)
            GeometryBytes.append(coordinate, to: &bytes)
        case .polygon(let rings):
            appendBounds(of: [rings], to: &bytes)
            GeometryBytes.append(polygon, to: &bytes)
            GeometryBytes.appendPolygon(rings, to: &bytes)
        case .multiPolygon(let polygons):
            appendBounds(of: polygons, to: &bytes)
            GeometryBytes.append(multiPolygon, to: &bytes)
            GeometryBytes.appendPolygons(polygons, marker: 0x69, to: &bytes)
        }
        bytes.append(0xFE)
    }

    private static func appendBounds(of polygons: [[[Coordinate]]], to bytes: inout [UInt8]) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for coordinate in polygons.lazy.compactMap(\.first).joined() {
            minX = min(minX, coordinate.longitude)
            maxX = max(maxX, coordinate.longitude)
            minY = min(minY, coordinate.latitude)
            maxY = max(maxY, coordinate.latitude)
        }
        for value in [minX, minY, maxX, maxY] { GeometryBytes.append(value, to: &bytes) }
        bytes.append(0x7C)
    }
}
