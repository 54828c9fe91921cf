import Foundation
import MeridianCore

/// GeoJSON (RFC 7946) export: a Feature whose geometry is a LineString (one segment) or a
/// MultiLineString (one line per segment), positions `[lon, lat]` or `[lon, lat, altitude]` when every
/// point has an altitude, and the run object as properties plus `coord_times` (ISO 8601 per position).
package enum GeoJSONExport {
    package static func document(run: RunSummary, points: [TrackPoint]) -> String {
        let segments = SegmentedTrack(points).segments
        let withAltitude = segments.allSatisfy { $0.allSatisfy { $0.altitude?.isFinite == true } }
        func position(_ point: TrackPoint) -> String {
            guard let coordinate = point.coordinate else { return "[]" }
            var text = "[\(ExportNumber.degrees(coordinate.longitude)),\(ExportNumber.degrees(coordinate.latitude))"
            if withAltitude, let altitude = point.altitude { text += ",\(ExportNumber.metres(altitude))" }
            return text + "]"
        }
        func line(_ segment: [TrackPoint]) -> String { "[" + segment.map(position).joined(separator: ",") + "]" }
        func times(_ segment: [TrackPoint]) -> String {
            "[" + segment.map { "\"\(ISO8601.string(from: $0.time))\"" }.joined(separator: ",") + "]"
        }
        let geometry: String
        let coordTimes: String
        switch segments.count {
        case 0:
            geometry = "null"
            coordTimes = "[]"
        case 1:
            geometry = "{\"type\":\"LineString\",\"coordinates\":\(line(segments[0]))}"
            coordTimes = times(segments[0])
        default:
            geometry = "{\"type\":\"MultiLineString\",\"coordinates\":[\(segments.map(line).joined(separator: ","))]}"
            coordTimes = "[" + segments.map(times).joined(separator: ",") + "]"
        }
        var properties = (try? MeridianJSON.string(run)) ?? "{}"
        properties.removeLast()
        properties += ",\"coord_times\":\(coordTimes)}"
        return "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties)}\n"
    }
}
