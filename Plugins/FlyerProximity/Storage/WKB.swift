import Foundation
import MeridianCore

/// Reads and writes Well-Known Binary (2D) for the geometries a flyer can have: the format
/// SpatiaLite's `AsBinary` and PostGIS's `ST_AsBinary` write, and PostGIS reads.
enum WKB {
    private static let point: UInt32 = 1
    private static let polygon: UInt32 = 3
    private static let multiPolygon: UInt32 = 6

    /// Decodes WKB written by SpatiaLite; nil for anything that is not a valid flyer geometry.
    static func decode(_ data: Data) -> FlyerGeometry? {
        var reader = Reader(bytes: [UInt8](data))
        return reader.geometry()
    }

    /// Replaces the contents of `bytes` with `geometry` as little-endian WKB.
    static func encode(_ geometry: FlyerGeometry, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(0x01)
        switch geometry {
        case .point(let coordinate):
            GeometryBytes.append(point, to: &bytes)
            GeometryBytes.append(coordinate, to: &bytes)
        case .polygon(let rings):
            GeometryBytes.append(polygon, to: &bytes)
            GeometryBytes.appendPolygon(rings, to: &bytes)
        case .multiPolygon(let polygons):
            GeometryBytes.append(multiPolygon, to: &bytes)
            GeometryBytes.appendPolygons(polygons, marker: 0x01, to: &bytes)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var littleEndian = true

        mutating func geometry() -> FlyerGeometry? {
            guard let type = header() else { return nil }
            switch type {
            case WKB.point: return position().map(FlyerGeometry.point)
            case WKB.polygon: return rings().map(FlyerGeometry.polygon)
            case WKB.multiPolygon:
                guard let count = uint32() else { return nil }
                var polygons: [[[Coordinate]]] = []
                for _ in 0..<count {
                    guard header() == WKB.polygon, let rings = rings() else { return nil }
                    polygons.append(rings)
                }
                return .multiPolygon(polygons)
            default: return nil
            }
        }

        mutating func header() -> UInt32? {
            guard offset < bytes.count else { return nil }
            littleEndian = bytes[offset] == 1
            offset += 1
            return uint32()
        }

        mutating func rings() -> [[Coordinate]]? {
            guard let ringCount = uint32() else { return nil }
            var rings: [[Coordinate]] = []
            for _ in 0..<ringCount {
                guard let pointCount = uint32(), Int(pointCount) * 16 <= bytes.count - offset else { return nil }
                var ring: [Coordinate] = []
                ring.reserveCapacity(Int(pointCount))
                for _ in 0..<pointCount {
                    guard let point = position() else { return nil }
                    ring.append(point)
                }
                rings.append(ring)
            }
            return rings
        }

        mutating func uint32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in 0..<4 {
                let byte = UInt32(bytes[offset + (littleEndian ? index : 3 - index)])
                value |= byte << (8 * UInt32(index))
            }
            offset += 4
            return value
        }

        mutating func double() -> Double? {
            guard offset + 8 <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 {
                let byte = UInt64(bytes[offset + (littleEndian ? index : 7 - index)])
                value |= byte << (8 * UInt64(index))
            }
            offset += 8
            return Double(bitPattern: value)
        }

        mutating func position() -> Coordinate? {
            guard let longitude = double(), let latitude = double() else { return nil }
            return try? Coordinate(latitude: latitude, longitude: longitude)
        }
    }
}
