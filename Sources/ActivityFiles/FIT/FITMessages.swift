import Foundation

/// FIT times: seconds since 1989-12-31T00:00:00Z; values below ``FITTime/systemTimeLimit``
/// count from the device's power-on instead.
typealias FITTime = UInt32

extension FITTime {
    /// Below this, a FIT `date_time` is seconds since the device was switched on (its clock was not set).
    static let systemTimeLimit: UInt32 = 0x1000_0000
    /// Seconds from 1970-01-01 to the FIT epoch 1989-12-31T00:00:00Z.
    static let unixOffset: Double = 631_065_600

    /// The time as a date, taking it as seconds since the FIT epoch and adding `clockOffset`
    /// seconds when it counts from power-on.
    func date(clockOffset: Double = 0) -> Date {
        Date(timeIntervalSince1970: Self.unixOffset + Double(self) + (self < Self.systemTimeLimit ? clockOffset : 0))
    }
}

/// A `session` or `lap` message.
struct FITSummary {
    var startTime: FITTime?
    /// The message's own `timestamp` (when it was written, normally the end).
    var timestamp: FITTime?
    var sport: Int?
    var subSport: Int?
    var elapsedTime: Double?
    var timerTime: Double?
    var distance: Double?
    var averageHeartRate: Double?
    var maxHeartRate: Double?
    /// Average cadence plus its fractional part, as stored.
    var averageCadence: Double?
    var averagePower: Double?
    var ascent: Double?
    var descent: Double?
    /// A lap's `lap_trigger`.
    var lapTrigger: Int?

    /// When it started: `start_time`, else its timestamp less its elapsed time.
    var start: FITTime? {
        if let startTime { return startTime }
        guard let timestamp, let elapsedTime, elapsedTime >= 0, elapsedTime <= Double(timestamp) else {
            return timestamp
        }
        return timestamp - FITTime(elapsedTime)
    }
}

/// A timer event: the timer started (`running`) or stopped.
struct FITTimerEvent {
    var time: FITTime
    var running: Bool
}

/// Everything Meridian reads from one FIT file (one link of a chain of FIT files).
struct FITContents {
    /// One sample per `record` with a time: cadence as stored (strides for foot sports), times
    /// as if the device's clock was set.
    var samples = RecordedSamples()
    /// Each sample's FIT time.
    var sampleTimes: [FITTime] = []
    var sessions: [FITSummary] = []
    var laps: [FITSummary] = []
    var timerEvents: [FITTimerEvent] = []
    var manufacturer: Int?
    var product: Int?
    var productName: String?
    /// The `sport` message's sport and sub_sport, for files without a session.
    var sport: Int?
    var subSport: Int?
    /// The `activity` message's `timestamp` and `local_timestamp`, which tie a clock that was
    /// not set to the device's local time.
    var activityTimestamp: FITTime?
    var activityLocalTimestamp: FITTime?
    var skipped: [String: Int] = [:]
    /// Byte offset where this file starts in the bytes read.
    var startOffset: Int
    /// When salvaging: the damage that ended reading (its byte offset is where the readable part ends).
    var damage: ActivityFileError?

    /// Whether nothing Meridian reads was found.
    var isEmpty: Bool { samples.isEmpty && sessions.isEmpty && laps.isEmpty }
}
