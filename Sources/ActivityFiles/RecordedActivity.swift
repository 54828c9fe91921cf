import Foundation
import MeridianCore

/// One activity read from a FIT, TCX or GPX file: what the device recorded, sample by sample,
/// and what it computed itself (totals, laps). All quantities are SI (metres, seconds, m/s, °C).
public struct RecordedActivity: Sendable, Equatable {
    /// The format of the bytes after any gzip compression was undone.
    public var format: ActivityFormat
    /// The sport the file names (FIT session sport, TCX `Activity Sport`, GPX `trk/type`), when it names one.
    public var sport: Sport?
    /// The file's own word for the sport, e.g. "running", "Biking", "fitness_equipment".
    public var sportName: String?
    /// The recording device: FIT `file_id` manufacturer and product ("garmin fr110"),
    /// TCX `Creator/Name`, GPX `creator`.
    public var device: String?
    /// GPX `trk/name`; the first line of TCX `Activity/Notes` (the `Id` is a time, not a name).
    public var name: String?
    /// FIT session `start_time`, TCX first lap `StartTime`, else the first sample's time.
    public var startTime: Date?
    /// What the device computed for the whole activity, when the file holds it
    /// (FIT session; TCX: the sum of its laps).
    public var totals: DeviceTotals?
    /// The device's laps (FIT `lap` messages, TCX `Lap`s), in file order.
    public var laps: [DeviceLap]
    /// Every sample with a time, in file order.
    public var samples: RecordedSamples
    /// Intervals during which nothing is counted: FIT timer stop→start events, and the
    /// boundaries of GPX `trkseg`s and TCX `Track`s (from the last sample of one to the first
    /// of the next; may be zero long).
    public var pauses: [DateInterval]
    /// What was skipped, and why, by count: e.g. `points_without_time`, `invalid_points`,
    /// `records_without_time`, `invalid_positions`.
    public var skipped: [String: Int]
    /// Located notes about parts of the file that were skipped or interpreted (a GPX point with
    /// a bad latitude, FIT times relative to power-on). At most ``warningLimit``; the rest are
    /// only counted in `skipped`.
    public var warnings: [ActivityFileError]

    /// The most warnings one activity keeps.
    public static let warningLimit = 100

    public init(
        format: ActivityFormat, sport: Sport? = nil, sportName: String? = nil, device: String? = nil,
        name: String? = nil, startTime: Date? = nil, totals: DeviceTotals? = nil, laps: [DeviceLap] = [],
        samples: [RecordedSample] = [], pauses: [DateInterval] = [], skipped: [String: Int] = [:],
        warnings: [ActivityFileError] = []
    ) {
        self.format = format
        self.sport = sport
        self.sportName = sportName
        self.device = device
        self.name = name
        self.startTime = startTime
        self.totals = totals
        self.laps = laps
        self.samples = RecordedSamples(samples)
        self.pauses = pauses
        self.skipped = skipped
        self.warnings = warnings
    }

    /// Counts one skipped item under `reason`.
    mutating func skip(_ reason: String, count: Int = 1) {
        guard count > 0 else { return }
        skipped[reason, default: 0] += count
    }

    /// Keeps `warning` unless ``warningLimit`` warnings are already kept.
    mutating func warn(_ warning: ActivityFileError) {
        if warnings.count < Self.warningLimit { warnings.append(warning) }
    }
}

/// The file formats an activity can come from.
public enum ActivityFormat: String, Sendable, CaseIterable {
    /// Garmin's binary Flexible and Interoperable Data Transfer format.
    case fit
    /// Garmin Training Center XML.
    case tcx
    /// GPS Exchange Format 1.0 or 1.1.
    case gpx
    /// A receiver's NMEA 0183 log.
    case nmea
    /// gpsd JSON reports, as `gpspipe -w` writes them.
    case gpsd
}

/// The kinds of activity Meridian tells apart.
public enum Sport: String, Sendable, CaseIterable {
    case run, ride, walk, hike, other

    /// The sport a file's word means, by its words (any case, split at anything not a letter):
    /// running, run, jogging→run; cycling, biking, bike, ride, e_biking, mountain_biking→ride;
    /// walking, walk→walk; hiking, hike→hike; anything else (generic, motorcycling, 9…)→other.
    public init(fileWord: String) {
        let words = fileWord.lowercased().split { !$0.isLetter }.map(String.init)
        func has(_ set: Set<String>) -> Bool { words.contains { set.contains($0) } }
        if has(["running", "run", "jogging", "jog"]) {
            self = .run
        } else if has(["cycling", "biking", "bike", "ride", "bicycle", "cycle", "ebike", "ebiking", "mtb"]) {
            self = .ride
        } else if has(["walking", "walk"]) {
            self = .walk
        } else if has(["hiking", "hike"]) {
            self = .hike
        } else {
            self = .other
        }
    }

    /// Whether cadence is counted per foot: devices record strides per minute, Meridian reports steps.
    var countsSteps: Bool { self == .run || self == .walk || self == .hike }
}

/// What the device computed for a whole activity; `nil` where the file does not say.
public struct DeviceTotals: Sendable, Equatable {
    /// Distance, m.
    public var distance: Double?
    /// Time with the timer running, s.
    public var timerTime: Double?
    /// Time from start to end, pauses included, s.
    public var elapsedTime: Double?
    /// Average heart rate, bpm.
    public var averageHeartRate: Double?
    /// Maximum heart rate, bpm.
    public var maxHeartRate: Double?
    /// Average cadence, in the unit of ``RecordedSample/cadence``.
    public var averageCadence: Double?
    /// Average power, W.
    public var averagePower: Double?
    /// Total ascent, m.
    public var ascent: Double?
    /// Total descent, m.
    public var descent: Double?

    public init(
        distance: Double? = nil, timerTime: Double? = nil, elapsedTime: Double? = nil,
        averageHeartRate: Double? = nil, maxHeartRate: Double? = nil, averageCadence: Double? = nil,
        averagePower: Double? = nil, ascent: Double? = nil, descent: Double? = nil
    ) {
        self.distance = distance
        self.timerTime = timerTime
        self.elapsedTime = elapsedTime
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.averageCadence = averageCadence
        self.averagePower = averagePower
        self.ascent = ascent
        self.descent = descent
    }
}

/// One lap as the device recorded it.
public struct DeviceLap: Sendable, Equatable {
    /// When the lap started.
    public var start: Date
    /// Time with the timer running, s.
    public var timerTime: Double?
    /// Distance, m.
    public var distance: Double?
    /// Average heart rate, bpm.
    public var averageHeartRate: Double?
    /// Maximum heart rate, bpm.
    public var maxHeartRate: Double?
    /// What ended the lap, when the file says (FIT `lap_trigger`, TCX `TriggerMethod`).
    public var trigger: LapTrigger?

    public init(
        start: Date, timerTime: Double? = nil, distance: Double? = nil,
        averageHeartRate: Double? = nil, maxHeartRate: Double? = nil, trigger: LapTrigger? = nil
    ) {
        self.start = start
        self.timerTime = timerTime
        self.distance = distance
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.trigger = trigger
    }
}

/// What ended a lap: the lap button, an auto-lap distance or time, a position (FIT position_*, TCX `Location`), the
/// end of the session, or something else (TCX `HeartRate`, FIT fitness_equipment).
public enum LapTrigger: String, Sendable, CaseIterable {
    case manual, distance, time, position
    case sessionEnd = "session_end"
    case other

    /// FIT `lap_trigger`: 0 manual, 1 time, 2 distance, 3–6 position_start/lap/waypoint/marked, 7 session_end,
    /// anything else other.
    init(fitNumber: Int) {
        switch fitNumber {
        case 0: self = .manual
        case 1: self = .time
        case 2: self = .distance
        case 3...6: self = .position
        case 7: self = .sessionEnd
        default: self = .other
        }
    }

    /// The FIT `lap_trigger` number written for it (position as position_lap 4, other as fitness_equipment 8).
    var fitNumber: Int64 {
        switch self {
        case .manual: return 0
        case .time: return 1
        case .distance: return 2
        case .position: return 4
        case .sessionEnd: return 7
        case .other: return 8
        }
    }

    /// TCX `TriggerMethod`: Manual, Distance, Location, Time, HeartRate (anything else: other).
    init(tcxWord: String) {
        switch tcxWord {
        case "Manual": self = .manual
        case "Distance": self = .distance
        case "Time": self = .time
        case "Location": self = .position
        default: self = .other
        }
    }
}

/// One recorded sample: a time and whatever the device measured then (`nil` = not measured). An import holds up to
/// ``ActivityFileReader/maximumSamples`` of them, so the measurements are stored in 8 bytes each (``Measured``):
/// 128 bytes a sample instead of 208.
public struct RecordedSample: Sendable, Equatable {
    /// UTC time of the sample.
    public var time: Date
    /// Position; `nil` for samples without one (indoor, foot pod, signal lost).
    public var coordinate: Coordinate?
    /// Altitude, m, as the file gives it (meant as above mean sea level).
    @Measured public var altitude: Double?
    /// Speed, m/s, as the device recorded it.
    @Measured public var speed: Double?
    /// Course over ground, degrees (GPX `course`, Garmin TrackPointExtension v2 `course`).
    @Measured public var course: Double?
    /// The file's cumulative distance field, m (FIT `distance`, TCX `DistanceMeters`).
    @Measured public var distance: Double?
    /// Heart rate, bpm.
    @Measured public var heartRate: Double?
    /// Cadence per minute: steps for run, walk and hike (devices store strides, doubled here),
    /// revolutions (or the file's own count) for everything else.
    @Measured public var cadence: Double?
    /// Power, W.
    @Measured public var power: Double?
    /// Temperature, °C.
    @Measured public var temperature: Double?
    /// Horizontal accuracy, m (FIT `gps_accuracy`); never derived from HDOP.
    @Measured public var horizontalAccuracy: Double?
    /// Horizontal dilution of precision (GPX `hdop`), unitless.
    @Measured public var hdop: Double?
    /// Satellites used (GPX `sat`).
    public var satellites: Int?
    /// The GPX `fix` type, when the file gives one.
    public var fix: GPSFixType?

    public init(
        time: Date, coordinate: Coordinate? = nil, altitude: Double? = nil, speed: Double? = nil,
        course: Double? = nil, distance: Double? = nil, heartRate: Double? = nil, cadence: Double? = nil,
        power: Double? = nil, temperature: Double? = nil, horizontalAccuracy: Double? = nil,
        hdop: Double? = nil, satellites: Int? = nil, fix: GPSFixType? = nil
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.distance = distance
        self.heartRate = heartRate
        self.cadence = cadence
        self.power = power
        self.temperature = temperature
        self.horizontalAccuracy = horizontalAccuracy
        self.hdop = hdop
        self.satellites = satellites
        self.fix = fix
    }
}

/// GPX `fix` values: the kind of solution a point came from.
public enum GPSFixType: String, Sendable, CaseIterable {
    /// No fix: the point's position is not a measurement (its coordinate is left out).
    case none
    case twoD = "2d"
    case threeD = "3d"
    case dgps
    case pps
}
