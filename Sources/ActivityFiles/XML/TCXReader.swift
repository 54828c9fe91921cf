import Foundation
import MeridianCore

/// Reads Garmin Training Center XML (TCX v2): one activity per `Activities/Activity`.
///
/// Activity: `Sport`, `Notes` (its first line is the name), `Creator/Name`. Lap: `StartTime`, `TotalTimeSeconds`,
/// `DistanceMeters`, `AverageHeartRateBpm/Value`, `MaximumHeartRateBpm/Value`. Trackpoint:
/// `Time`, `Position/LatitudeDegrees` and `LongitudeDegrees`, `AltitudeMeters`,
/// `DistanceMeters`, `HeartRateBpm/Value`, `Cadence`, and ActivityExtension v2 `TPX`
/// (`Speed`, `RunCadence`, `Watts`). A `Track` boundary inside a lap is a pause (devices start a new
/// track after a pause); the first track of a lap is not (some devices, the Forerunner 405 among them, start
/// a new track with every lap and keep counting across it).
enum TCXReader {
    /// The activities of a TCX document, plain or gzip-compressed; stops with an error when `isCancelled` says so.
    static func read(_ input: XMLInput, file: String, isCancelled: () -> Bool = { false }) throws(ActivityFileError)
        -> [RecordedActivity]
    {
        let reader = TCXDocument(file: file)
        if let error = reader.parse(input, isCancelled: isCancelled) { throw error }
        return reader.activities
    }
}

private final class TCXDocument: XMLDocumentReader {
    private(set) var activities: [RecordedActivity] = []
    private var activity: RecordedActivity?
    private var track = SegmentedSamples()
    private var activityDepth = 0
    private var notes: String?
    private var lap: DeviceLap?
    /// Whether the current lap has had a `Track` already (a further one follows a pause).
    private var lapHasTrack = false
    private var lapDepth = 0
    private var point: XMLPoint?
    private var pointDepth = 0

    /// Trackpoint paths (below `Trackpoint`) and the value each one is.
    private static let pointValues: [String: String] = [
        "Time": "time", "Position/LatitudeDegrees": "latitude", "Position/LongitudeDegrees": "longitude",
        "AltitudeMeters": "altitude", "DistanceMeters": "distance", "HeartRateBpm/Value": "heart_rate",
        "Cadence": "cadence"
    ]
    /// The lap value a path below `Lap` is.
    private static func lapValue(_ key: String) -> WritableKeyPath<DeviceLap, Double?>? {
        switch key {
        case "TotalTimeSeconds": return \.timerTime
        case "DistanceMeters": return \.distance
        case "AverageHeartRateBpm/Value": return \.averageHeartRate
        case "MaximumHeartRateBpm/Value": return \.maxHeartRate
        default: return nil
        }
    }
    /// Names inside a trackpoint's `Extensions` and the value each one is.
    private static let extensionValues: [String: String] = [
        "Speed": "speed", "RunCadence": "run_cadence", "Watts": "power"
    ]

    override func open(_ name: String, attributes: [String: String]) {
        switch name {
        case "Activity" where activity == nil:
            let sport = attributes["Sport"].flatMap { $0.isEmpty ? nil : $0 }
            activity = RecordedActivity(format: .tcx, sport: sport.map(Sport.init(fileWord:)), sportName: sport)
            activityDepth = path.count - 1
            track = SegmentedSamples()
            notes = nil
        case "Lap" where activity != nil && path.count == activityDepth + 2:
            lapDepth = path.count - 1
            lapHasTrack = false
            let text = attributes["StartTime"] ?? ""
            if let start = ISO8601.date(from: text) {
                lap = DeviceLap(start: start)
            } else {
                activity?.skip("invalid_laps")
                activity?.warn(
                    ActivityFileError(
                        file: file, line: line,
                        message: "lap has StartTime '\(text)', which is not an ISO 8601 date-time; lap left out"))
                lap = nil
            }
        case "Track" where activity != nil:
            if lapHasTrack { track.beginSegment() }
            lapHasTrack = true
        case "Trackpoint" where activity != nil:
            point = XMLPoint(line: line)
            pointDepth = path.count - 1
        default:
            break
        }
    }

    override func close(_ name: String, text: String) {
        guard activity != nil else { return }
        if var current = point {
            if path.count == pointDepth + 1 {
                point = nil
                finish(current)
                return
            }
            let key = relativePath(below: pointDepth)
            if let value = Self.pointValues[key] {
                current.set(value, text)
            } else if key.hasPrefix("Extensions/"), let value = Self.extensionValues[name] {
                current.set(value, text)
            }
            point = current
            return
        }
        let below = relativePath(below: activityDepth)
        switch below {
        case "Notes": notes = text
        case "Creator/Name": activity?.device = text.isEmpty ? nil : text
        case "Lap": closeLap()
        case "": closeActivity()
        default:
            if below == "Lap/TriggerMethod", lap != nil {
                lap?.trigger = LapTrigger(tcxWord: text)
            } else if below.hasPrefix("Lap/") {
                lapValue(String(below.dropFirst(4)), text: text)
            }
        }
    }

    private func lapValue(_ key: String, text: String) {
        guard lap != nil, let keyPath = Self.lapValue(key) else { return }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            activity?.skip("invalid_values")
            activity?.warn(
                ActivityFileError(
                    file: file, line: line, message: "lap \(key) '\(text)' is not a non-negative number; value ignored")
            )
            return
        }
        lap?[keyPath: keyPath] = value
    }

    private func closeLap() {
        if let lap { activity?.laps.append(lap) }
        lap = nil
    }

    private func closeActivity() {
        guard var finished = activity else { return }
        (finished.samples, finished.pauses) = track.take()
        finished.name = notes.flatMap(Self.name(fromNotes:))
        finished.startTime = finished.laps.first?.start ?? finished.samples.first?.time
        finished.totals = Self.totals(of: finished.laps)
        activities.append(finished)
        activity = nil
    }

    /// The first line of `Notes` with text, trimmed: the activity's name (Meridian writes the run's name there, its
    /// notes below). The `Id` is a time, not a name: without notes the importer names the run after the file.
    private static func name(fromNotes notes: String) -> String? {
        notes.split(whereSeparator: \.isNewline).lazy
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
    }

    private func finish(_ point: XMLPoint) {
        guard var current = activity else { return }
        defer { activity = current }
        let (coordinate, valid) = point.coordinate(file: file, required: false, activity: &current)
        guard valid, let time = point.time("time", file: file, activity: &current), countSample() else { return }
        // RunCadence is strides per minute; Meridian reports steps. Cadence is revolutions per minute.
        let cadence =
            point.number("run_cadence", nonNegative: true, file: file, activity: &current).map { $0 * 2 }
            ?? point.number("cadence", nonNegative: true, file: file, activity: &current)
        track.append(
            RecordedSample(
                time: time, coordinate: coordinate,
                altitude: point.number("altitude", file: file, activity: &current),
                speed: point.number("speed", nonNegative: true, file: file, activity: &current),
                distance: point.number("distance", nonNegative: true, file: file, activity: &current),
                heartRate: point.number("heart_rate", nonNegative: true, file: file, activity: &current),
                cadence: cadence,
                power: point.number("power", nonNegative: true, file: file, activity: &current)))
    }

    /// The laps added up: distance and timer summed, maximum heart rate the largest, average
    /// heart rate weighted by each lap's timer time.
    private static func totals(of laps: [DeviceLap]) -> DeviceTotals? {
        guard !laps.isEmpty else { return nil }
        func sum(_ values: [Double?]) -> Double? {
            let present = values.compactMap { $0 }
            return present.isEmpty ? nil : present.reduce(0, +)
        }
        let weighted = laps.compactMap { lap -> (Double, Double)? in
            guard let average = lap.averageHeartRate, let time = lap.timerTime, time > 0 else { return nil }
            return (average * time, time)
        }
        let weight = weighted.reduce(0) { $0 + $1.1 }
        return DeviceTotals(
            distance: sum(laps.map(\.distance)), timerTime: sum(laps.map(\.timerTime)),
            averageHeartRate: weight > 0 ? weighted.reduce(0) { $0 + $1.0 } / weight : nil,
            maxHeartRate: laps.compactMap(\.maxHeartRate).max())
    }
}
