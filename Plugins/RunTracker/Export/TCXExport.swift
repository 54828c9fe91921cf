import Foundation
import MeridianCore

/// Training Center Database v2 export: one Activity with one Lap per kilometre (or a single lap);
/// inside a lap, a new Track starts after each pause or signal gap.
public enum TCXExport {
    public static let namespace = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"

    /// How the run is divided into laps.
    public enum Laps: String, Sendable, CaseIterable {
        /// One lap per kilometre split (the last one partial), starting at the interpolated crossing.
        case perKilometre = "km"
        /// One lap for the whole run.
        case single
    }

    public static func document(run: RunSummary, points: [TrackPoint], laps: Laps) -> String {
        let usable = RunProgress.usable(points)
        let progress = RunProgress(points: points, start: run.startedAt)
        let sport: String
        switch run.activity {
        case .run: sport = "Running"
        case .ride: sport = "Biking"
        default: sport = "Other"
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="\(namespace)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="\(namespace) http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">
              <Activities>
                <Activity Sport="\(sport)">
                  <Id>\(ISO8601.string(from: run.startedAt))</Id>

            """
        for lap in lapPlan(run: run, progress: progress, laps: laps) {
            let lapPoints = usable.indices.filter { lap.distanceRange.contains(progress.distances[$0]) }.map { usable[$0] }
            let lapDistances = usable.indices.filter { lap.distanceRange.contains(progress.distances[$0]) }.map { progress.distances[$0] }
            xml += "      <Lap StartTime=\"\(ISO8601.string(from: run.startedAt.addingTimeInterval(lap.startOffset)))\">\n"
            xml += "        <TotalTimeSeconds>\(NumberText.fixed(max(0, lap.time), decimals: 3))</TotalTimeSeconds>\n"
            xml += "        <DistanceMeters>\(ExportNumber.metres(lap.distance))</DistanceMeters>\n"
            if let maximum = lapPoints.compactMap(\.speed).filter(\.isFinite).max() {
                xml += "        <MaximumSpeed>\(ExportNumber.speed(max(0, maximum)))</MaximumSpeed>\n"
            }
            xml += "        <Calories>0</Calories>\n        <Intensity>Active</Intensity>\n"
            xml += "        <TriggerMethod>\(laps == .single ? "Manual" : "Distance")</TriggerMethod>\n"
            var segment: Int?
            for (point, distance) in zip(lapPoints, lapDistances) {
                guard let coordinate = point.coordinate else { continue }
                if point.segment != segment {
                    if segment != nil { xml += "        </Track>\n" }
                    xml += "        <Track>\n"
                    segment = point.segment
                }
                xml += "          <Trackpoint><Time>\(ISO8601.string(from: point.time))</Time>"
                xml += "<Position><LatitudeDegrees>\(ExportNumber.degrees(coordinate.latitude))</LatitudeDegrees>"
                xml += "<LongitudeDegrees>\(ExportNumber.longitude(coordinate.longitude))</LongitudeDegrees></Position>"
                if let altitude = point.altitude, altitude.isFinite { xml += "<AltitudeMeters>\(ExportNumber.metres(altitude))</AltitudeMeters>" }
                xml += "<DistanceMeters>\(ExportNumber.metres(distance))</DistanceMeters></Trackpoint>\n"
            }
            if segment != nil { xml += "        </Track>\n" }
            xml += "      </Lap>\n"
        }
        if !run.notes.isEmpty { xml += "      <Notes>\(XMLText.escape(run.notes))</Notes>\n" }
        xml += "    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n"
        return xml
    }

    struct LapPlan {
        var startOffset: Double
        var time: Double
        var distance: Double
        var distanceRange: Range<Double>
    }

    /// The laps: the kilometre splits, or one lap over the timer time. There is always at least one lap.
    static func lapPlan(run: RunSummary, progress: RunProgress, laps: Laps) -> [LapPlan] {
        let first = progress.times.first ?? 0
        let single = LapPlan(startOffset: first, time: run.timerTime > 0 ? run.timerTime : (progress.times.last ?? 0) - first,
                             distance: progress.totalDistance, distanceRange: 0..<Double.infinity)
        guard laps == .perKilometre else { return [single] }
        let splits = progress.splits(every: 1000, unit: "km").splits
        guard !splits.isEmpty else { return [single] }
        var lower = 0.0
        return splits.enumerated().map { index, split in
            let upper = index == splits.count - 1 ? Double.infinity : lower + split.distance
            defer { lower = upper }
            return LapPlan(startOffset: split.startOffset, time: split.elapsedTime, distance: split.distance,
                           distanceRange: lower..<upper)
        }
    }
}
