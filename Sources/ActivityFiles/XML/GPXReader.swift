import Foundation

/// Reads GPX 1.0 and 1.1: every `trkpt` and `rtept` with a time becomes a sample, each
/// `trkseg` (and `rte`) boundary a pause.
///
/// Per point: `lat`/`lon`, `ele`, `time`, `speed` and `course` (GPX 1.0), `sat`, `hdop`,
/// `fix`; in `extensions`, under any namespace prefix: Garmin TrackPointExtension v1/v2
/// (`hr`, `cad`, `atemp`, `speed`, `course`), cluetrust gpxdata (`hr`, `cadence`, `temp`,
/// `distance`), Holux (`bpm`, `rpm`), `power` (Strava and others) and Garmin PowerExtension
/// (`PowerInWatts`). Also the `gpx` `creator`, the first `trk`'s `name` and `type`.
public enum GPXReader {
    /// The activity in a GPX document (plain or gzip-compressed), read as far as the XML is well-formed,
    /// and the XML error that stopped reading, if one did (then the points before it are kept).
    /// `isCancelled` is asked as the document is read; when it says so, reading stops with an error.
    public static func read(
        _ data: Data, file: String,
        isCancelled: () -> Bool = { false }
    ) -> (activity: RecordedActivity, error: ActivityFileError?) {
        read(.bytes(data), file: file, isCancelled: isCancelled)
    }

    /// The same as ``read(_:file:isCancelled:)`` for a document in memory or in a plain file.
    static func read(
        _ input: XMLInput, file: String,
        isCancelled: () -> Bool = { false }
    ) -> (activity: RecordedActivity, error: ActivityFileError?) {
        let reader = GPXDocument(file: file)
        let error = reader.parse(input, isCancelled: isCancelled)
        return (reader.finish(), error)
    }
}

private final class GPXDocument: XMLDocumentReader {
    private var activity = RecordedActivity(format: .gpx)
    private var track = SegmentedSamples()
    private var point: XMLPoint?
    /// Index in `path` of the open `trkpt`/`rtept`.
    private var pointDepth = 0
    private var trackCount = 0
    private var metadataName: String?

    /// Extension element names (lowercased) and the value each one is.
    private static let extensionValues: [String: String] = [
        "hr": "heart_rate", "heartrate": "heart_rate", "bpm": "heart_rate",
        "cad": "cadence", "cadence": "cadence", "rpm": "cadence",
        "atemp": "temperature", "temp": "temperature", "temperature": "temperature",
        "power": "power", "powerinwatts": "power", "watts": "power",
        "speed": "extension_speed", "course": "extension_course", "distance": "distance"
    ]
    private static let pointValues: Set<String> = ["ele", "time", "speed", "course", "sat", "hdop", "fix"]

    override func open(_ name: String, attributes: [String: String]) {
        switch name {
        case "gpx" where path.count == 1:
            activity.device = attributes["creator"].flatMap { $0.isEmpty ? nil : $0 }
        case "trk", "rte":
            trackCount += 1
            track.beginSegment()
        case "trkseg":
            track.beginSegment()
        case "trkpt", "rtept":
            var point = XMLPoint(line: line)
            if let latitude = attributes["lat"] { point.values["latitude"] = latitude }
            if let longitude = attributes["lon"] { point.values["longitude"] = longitude }
            self.point = point
            pointDepth = path.count - 1
        default:
            break
        }
    }

    override func wantsText() -> Bool {
        point != nil || path.last == "name" || path.last == "type"
    }

    override func close(_ name: String, text: String) {
        guard var current = point else {
            closeOutsidePoint(name, text: text)
            return
        }
        if path.count == pointDepth + 1 {
            point = nil
            finish(current)
            return
        }
        let key = relativePath(below: pointDepth)
        if Self.pointValues.contains(key) {
            current.set(key, text)
        } else if key.hasPrefix("extensions/"), let value = Self.extensionValues[name.lowercased()], !text.isEmpty {
            current.set(value, text)
        }
        point = current
    }

    private func closeOutsidePoint(_ name: String, text: String) {
        guard !text.isEmpty else { return }
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        switch (parent, name) {
        case ("trk", "name") where trackCount == 1 && activity.name == nil:
            activity.name = text
        case ("trk", "type") where trackCount == 1 && activity.sportName == nil:
            activity.sportName = text
            activity.sport = Sport(fileWord: text)
        case ("metadata", "name"), ("gpx", "name"):
            metadataName = metadataName ?? text
        default:
            break
        }
    }

    private func finish(_ point: XMLPoint) {
        var (coordinate, valid) = point.coordinate(file: file, required: true, activity: &activity)
        guard valid, let time = point.time("time", file: file, activity: &activity), countSample() else { return }
        var fix: GPSFixType?
        if let text = point.values["fix"] {
            fix = GPSFixType(rawValue: text)
            if fix == nil {
                activity.skip("invalid_values")
                activity.warn(point.problem(file, "fix '\(text)' is not none, 2d, 3d, dgps or pps; value ignored"))
            }
        }
        var altitude = point.number("ele", file: file, activity: &activity)
        var speed =
            point.number("speed", nonNegative: true, file: file, activity: &activity)
            ?? point.number("extension_speed", nonNegative: true, file: file, activity: &activity)
        var course =
            (point.number("course", nonNegative: true, file: file, activity: &activity)
            ?? point.number("extension_course", nonNegative: true, file: file, activity: &activity))
            .map { $0.truncatingRemainder(dividingBy: 360) }
        if fix == GPSFixType.none {
            // A point without a fix: its position, altitude and motion are not measurements.
            coordinate = nil
            altitude = nil
            speed = nil
            course = nil
        }
        var satellites: Int?
        if let text = point.values["sat"] {
            satellites = Int(text).flatMap { $0 >= 0 ? $0 : nil }
            if satellites == nil {
                activity.skip("invalid_values")
                activity.warn(point.problem(file, "sat '\(text)' is not a count of satellites; value ignored"))
            }
        }
        track.append(
            RecordedSample(
                time: time, coordinate: coordinate, altitude: altitude, speed: speed, course: course,
                distance: point.number("distance", nonNegative: true, file: file, activity: &activity),
                heartRate: point.number("heart_rate", nonNegative: true, file: file, activity: &activity),
                cadence: point.number("cadence", nonNegative: true, file: file, activity: &activity),
                power: point.number("power", nonNegative: true, file: file, activity: &activity),
                temperature: point.number("temperature", file: file, activity: &activity),
                hdop: point.number("hdop", nonNegative: true, file: file, activity: &activity),
                satellites: satellites, fix: fix))
    }

    func finish() -> RecordedActivity {
        (activity.samples, activity.pauses) = track.take()
        if activity.sport?.countsSteps == true {
            // Devices write cadence for foot sports as strides per minute; Meridian reports steps.
            for index in activity.samples.indices { activity.samples[index].cadence? *= 2 }
        }
        activity.name = activity.name ?? metadataName
        activity.startTime = activity.samples.first?.time
        return activity
    }
}
