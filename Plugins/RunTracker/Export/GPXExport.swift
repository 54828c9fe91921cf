import Foundation
import MeridianCore

/// GPX 1.1 export: one `trk` with one `trkseg` per segment (a pause starts a new one); temperature, heart rate,
/// cadence and the receiver's speed in Garmin's TrackPointExtension v2, power in Garmin's PowerExtension.
package enum GPXExport {
    package static let namespace = "http://www.topografix.com/GPX/1/1"
    package static let trackPointExtensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    package static let powerExtensionNamespace = "http://www.garmin.com/xmlschemas/PowerExtension/v1"

    package static func document(run: RunSummary, points: [TrackPoint]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Meridian" xmlns="\(namespace)" \
            xmlns:gpxtpx="\(trackPointExtensionNamespace)" xmlns:pwr="\(powerExtensionNamespace)" \
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
                xml +=
                    "      <trkpt lat=\"\(ExportNumber.degrees(coordinate.latitude))\" lon=\"\(ExportNumber.longitude(coordinate.longitude))\">"
                if let altitude = point.altitude, altitude.isFinite {
                    xml += "<ele>\(ExportNumber.metres(altitude))</ele>"
                }
                xml += "<time>\(ISO8601.string(from: point.time))</time>"
                xml += extensions(point, activity: run.activity)
                xml += "</trkpt>\n"
            }
            xml += "    </trkseg>\n"
        }
        xml += "  </trk>\n</gpx>\n"
        return xml
    }

    /// The point's sensors and speed, in the element order TrackPointExtension v2 requires; empty without any.
    /// Cadence is written per stride for runs, walks and hikes (as devices do) and read back as steps.
    static func extensions(_ point: TrackPoint, activity: Activity) -> String {
        var tpx = ""
        if let temperature = point.sensors.temperature {
            tpx += "<gpxtpx:atemp>\(NumberText.fixed(temperature, decimals: 1))</gpxtpx:atemp>"
        }
        if let heartRate = point.sensors.heartRate {
            tpx += "<gpxtpx:hr>\(ExportNumber.perMinute(heartRate))</gpxtpx:hr>"
        }
        if let cadence = point.sensors.cadence {
            tpx += "<gpxtpx:cad>\(ExportNumber.perMinute(activity.countsSteps ? cadence / 2 : cadence))</gpxtpx:cad>"
        }
        if let speed = point.speed, speed.isFinite, speed >= 0 {
            tpx += "<gpxtpx:speed>\(ExportNumber.speed(speed))</gpxtpx:speed>"
        }
        var xml = tpx.isEmpty ? "" : "<gpxtpx:TrackPointExtension>\(tpx)</gpxtpx:TrackPointExtension>"
        if let power = point.sensors.power {
            xml += "<pwr:PowerInWatts>\(ExportNumber.watts(power))</pwr:PowerInWatts>"
        }
        return xml.isEmpty ? "" : "<extensions>\(xml)</extensions>"
    }
}
