import Foundation
import MeridianCore

/// GPX 1.1 export: one `trk` with one `trkseg` per segment (a pause or signal gap starts a new one), and
/// the receiver's speed in Garmin's TrackPointExtension v2.
public enum GPXExport {
    public static let namespace = "http://www.topografix.com/GPX/1/1"
    public static let trackPointExtensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    public static func document(run: RunSummary, points: [TrackPoint]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Meridian" xmlns="\(namespace)" \
            xmlns:gpxtpx="\(trackPointExtensionNamespace)" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="\(namespace) http://www.topografix.com/GPX/1/1/gpx.xsd \
            \(trackPointExtensionNamespace) http://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
              <metadata>
                <name>\(XMLText.escape(run.name))</name>
                <time>\(ISO8601.string(from: run.startedAt))</time>
              </metadata>
              <trk>
                <name>\(XMLText.escape(run.name))</name>

            """
        if !run.notes.isEmpty { xml += "    <desc>\(XMLText.escape(run.notes))</desc>\n" }
        xml += "    <type>\(run.activity.rawValue)</type>\n"
        for segment in SegmentedTrack(points).segments {
            xml += "    <trkseg>\n"
            for point in segment {
                guard let coordinate = point.coordinate else { continue }
                xml += "      <trkpt lat=\"\(ExportNumber.degrees(coordinate.latitude))\" lon=\"\(ExportNumber.longitude(coordinate.longitude))\">"
                if let altitude = point.altitude, altitude.isFinite { xml += "<ele>\(ExportNumber.metres(altitude))</ele>" }
                xml += "<time>\(ISO8601.string(from: point.time))</time>"
                if let speed = point.speed, speed.isFinite, speed >= 0 {
                    xml += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>\(ExportNumber.speed(speed))</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
                }
                xml += "</trkpt>\n"
            }
            xml += "    </trkseg>\n"
        }
        xml += "  </trk>\n</gpx>\n"
        return xml
    }
}
