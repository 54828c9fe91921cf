import ActivityFiles
import Foundation
import MeridianCore

/// Training Center Database v2 export: one Activity with one Lap per kilometre (or a single lap);
/// inside a lap, a new Track starts after each pause or signal gap.
package enum TCXExport {
    package static let namespace = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"

    /// How the run is divided into laps.
    package enum Laps: String, Sendable, CaseIterable {
        /// One lap per kilometre split (the last one partial), starting at the interpolated crossing.
        case perKilometre = "km"
        /// One lap for the whole run.
        case single
        /// The device's laps of an imported run (FIT `lap`, TCX `Lap`), else one per kilometre.
        case device
    }

    /// Garmin's ActivityExtension (speed, run cadence, power per trackpoint).
    package static let activityExtensionNamespace = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"

    /// The document; `cut` leaves out the points in privacy zones (a new Track after each cut) and the distance run
    /// in them, while the laps keep the whole route's figures.
    package static func document(
        run: RunSummary, points: [TrackPoint], laps: Laps, deviceLaps: [DeviceLap] = [], cut: PrivacyCut? = nil
    ) -> String {
        let cut = cut ?? .whole(points)
        let measured = points.filter { $0.isAccepted && $0.distance != nil }
        let progress = RunProgress(points: points, start: run.startedAt)
        let sport: String
        switch run.activity {
        case .run: sport = "Running"
        case .ride: sport = "Biking"
        default: sport = "Other"
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="\(namespace)" xmlns:ns3="\(activityExtensionNamespace)" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="\(namespace) http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">
              <Activities>
                <Activity Sport="\(sport)">
                  <Id>\(ISO8601.string(from: run.startedAt))</Id>

            """
        for lap in lapPlan(run: run, progress: progress, laps: laps, deviceLaps: deviceLaps, points: measured) {
            let lapPoints = measured.filter { lap.distanceRange.contains($0.distance ?? 0) }
            xml +=
                "      <Lap StartTime=\"\(ISO8601.string(from: run.startedAt.addingTimeInterval(lap.startOffset)))\">\n"
            xml += "        <TotalTimeSeconds>\(NumberText.fixed(max(0, lap.time), decimals: 3))</TotalTimeSeconds>\n"
            xml += "        <DistanceMeters>\(ExportNumber.metres(lap.distance))</DistanceMeters>\n"
            if let maximum = lapPoints.compactMap(\.speed).filter(\.isFinite).max() {
                xml += "        <MaximumSpeed>\(ExportNumber.speed(max(0, maximum)))</MaximumSpeed>\n"
            }
            xml += "        <Calories>0</Calories>\n        <Intensity>Active</Intensity>\n"
            xml += "        <TriggerMethod>\(tcxWord(lap.trigger))</TriggerMethod>\n"
            var segment: Int?
            for point in cut.visible(lapPoints) {
                if point.segment != segment {
                    if segment != nil { xml += "        </Track>\n" }
                    xml += "        <Track>\n"
                    segment = point.segment
                }
                xml += "          " + trackpoint(point, activity: run.activity) + "\n"
            }
            if segment != nil { xml += "        </Track>\n" }
            xml += "      </Lap>\n"
        }
        xml += "      <Notes>\(XMLText.escape(notes(of: run)))</Notes>\n"
        xml += "    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n"
        return xml
    }

    /// The Activity's `Notes`, TCX's only free text: the run's name on the first line (what an import takes as the
    /// name), its notes after a blank line.
    static func notes(of run: RunSummary) -> String {
        run.notes.isEmpty ? run.name : run.name + "\n\n" + run.notes
    }

    /// One `Trackpoint` in the schema's element order; a point without a position (treadmill, indoor) keeps its
    /// time, distance and sensors. Run cadence goes in the extension, per stride, as devices write it.
    static func trackpoint(_ point: TrackPoint, activity: Activity) -> String {
        var xml = "<Trackpoint><Time>\(ISO8601.string(from: point.time))</Time>"
        if let coordinate = point.coordinate {
            xml += "<Position><LatitudeDegrees>\(ExportNumber.degrees(coordinate.latitude))</LatitudeDegrees>"
            xml += "<LongitudeDegrees>\(ExportNumber.longitude(coordinate.longitude))</LongitudeDegrees></Position>"
        }
        if let altitude = point.altitude, altitude.isFinite {
            xml += "<AltitudeMeters>\(ExportNumber.metres(altitude))</AltitudeMeters>"
        }
        if let distance = point.distance { xml += "<DistanceMeters>\(ExportNumber.metres(distance))</DistanceMeters>" }
        if let heartRate = point.sensors.heartRate {
            xml += "<HeartRateBpm><Value>\(ExportNumber.perMinute(max(1, heartRate)))</Value></HeartRateBpm>"
        }
        if let cadence = point.sensors.cadence, !activity.countsSteps {
            xml += "<Cadence>\(ExportNumber.perMinute(cadence))</Cadence>"
        }
        var tpx = ""
        if let speed = point.speed, speed.isFinite, speed >= 0 {
            tpx += "<ns3:Speed>\(ExportNumber.speed(speed))</ns3:Speed>"
        }
        if let cadence = point.sensors.cadence, activity.countsSteps {
            tpx += "<ns3:RunCadence>\(ExportNumber.perMinute(cadence / 2))</ns3:RunCadence>"
        }
        if let power = point.sensors.power { tpx += "<ns3:Watts>\(ExportNumber.watts(power))</ns3:Watts>" }
        if !tpx.isEmpty { xml += "<Extensions><ns3:TPX>\(tpx)</ns3:TPX></Extensions>" }
        return xml + "</Trackpoint>"
    }

    struct LapPlan {
        var startOffset: Double
        var time: Double
        var distance: Double
        var distanceRange: Range<Double>
        var trigger: LapTrigger = .distance
    }

    /// TCX `TriggerMethod` for a trigger (TCX has no session end or other: Manual).
    static func tcxWord(_ trigger: LapTrigger) -> String {
        switch trigger {
        case .distance: return "Distance"
        case .time: return "Time"
        case .position: return "Location"
        case .manual, .sessionEnd, .other: return "Manual"
        }
    }

    /// The laps: the device's (each with the points from its start on, by time), the kilometre splits, or one lap
    /// over the timer time. There is always at least one lap. `points` are the measured points in time order.
    static func lapPlan(
        run: RunSummary, progress: RunProgress, laps: Laps, deviceLaps: [DeviceLap] = [],
        points: [TrackPoint] = []
    ) -> [LapPlan] {
        if laps == .device, !deviceLaps.isEmpty {
            // A lap holds the points from its start to the next lap's start: its distance range starts at the first
            // measured point at or after its start.
            let lower = deviceLaps.map { lap in points.first { $0.time >= lap.start }?.distance ?? .infinity }
            return deviceLaps.enumerated().map { index, lap in
                let from = index == 0 ? 0 : lower[index]
                let to = index + 1 < deviceLaps.count ? max(from, lower[index + 1]) : .infinity
                return LapPlan(
                    startOffset: lap.start.timeIntervalSince(run.startedAt), time: lap.timerTime ?? 0,
                    distance: lap.distance ?? 0, distanceRange: from..<to, trigger: lap.trigger ?? .manual)
            }
        }
        let first = progress.times.first ?? 0
        let single = LapPlan(
            startOffset: first, time: run.timerTime > 0 ? run.timerTime : (progress.times.last ?? 0) - first,
            distance: progress.totalDistance, distanceRange: 0..<Double.infinity, trigger: .manual)
        guard laps != .single else { return [single] }
        let splits = progress.splits(every: 1000, unit: "km").splits
        guard !splits.isEmpty else { return [single] }
        var lower = 0.0
        return splits.enumerated().map { index, split in
            let upper = index == splits.count - 1 ? Double.infinity : lower + split.distance
            defer { lower = upper }
            return LapPlan(
                startOffset: split.startOffset, time: split.timerTime, distance: split.distance,
                distanceRange: lower..<upper)
        }
    }
}
