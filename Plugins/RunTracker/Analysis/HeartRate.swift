import Foundation
import MeridianCore

/// A run's heart rate over time while the timer ran, for split averages and time in zones.
///
/// Readings are joined by straight lines (the trapezoid rule, as the run's own average) within stretches of
/// tracking; an interval that spans a pause or a segment change is not part of any stretch.
struct HeartRateSeries {
    /// One interval between two readings: seconds since the run's start, and the beats per minute at both ends.
    struct Interval {
        var start: Double
        var end: Double
        var from: Double
        var to: Double

        /// The heart rate at `time` within the interval, by linear interpolation.
        func value(at time: Double) -> Double {
            end > start ? from + (to - from) * (time - start) / (end - start) : to
        }
    }

    let intervals: [Interval]

    init(points: [TrackPoint], start: Date) {
        var intervals: [Interval] = []
        var previous: (time: Double, value: Double, segment: Int)?
        for point in points {
            guard point.rejection != .outOfOrder else { continue }
            guard point.rejection != .paused, let value = point.sensors.heartRate else {
                if point.rejection == .paused { previous = nil }
                continue
            }
            let time = point.time.timeIntervalSince(start)
            if let previous, previous.segment == point.segment, time > previous.time {
                intervals.append(Interval(start: previous.time, end: time, from: previous.value, to: value))
            }
            previous = (time, value, point.segment)
        }
        self.intervals = intervals
    }

    var isEmpty: Bool { intervals.isEmpty }

    /// The time-weighted average between `from` and `to` seconds, or `nil` when no reading covers that time.
    func average(from: Double, to: Double) -> Double? {
        var sum = 0.0
        var duration = 0.0
        for interval in intervals where interval.end > from && interval.start < to {
            let start = max(from, interval.start)
            let end = min(to, interval.end)
            sum += (interval.value(at: start) + interval.value(at: end)) / 2 * (end - start)
            duration += end - start
        }
        return duration > 0 ? sum / duration : nil
    }
}

/// Time spent in each of five heart-rate zones: 50–60, 60–70, 70–80, 80–90 and 90–100 % (and above) of the
/// athlete's maximum heart rate (`max_heart_rate` in the run tracker's options).
package struct HeartRateZones: Sendable, Equatable, Codable {
    /// One zone and the time spent in it.
    package struct Zone: Sendable, Equatable, Codable {
        /// 1 to 5.
        package var zone: Int
        /// Lower and upper bound, beats per minute (the fifth zone has no upper bound).
        package var fromBpm: Double
        @NullWhenAbsent package var toBpm: Double?
        package var time: Double

        enum CodingKeys: String, CodingKey {
            case zone, fromBpm, toBpm
            case time = "timeS"
        }
    }

    package var maxHeartRate: Double
    package var zones: [Zone]
    /// Time below the first zone, seconds.
    package var below: Double

    enum CodingKeys: String, CodingKey {
        case maxHeartRate = "maxHeartRateBpm"
        case zones
        case below = "belowS"
    }

    /// The zones' lower bounds as fractions of the maximum heart rate.
    static let bounds = [0.5, 0.6, 0.7, 0.8, 0.9]

    /// The zones of `series`; each interval counts in the zone of its mean heart rate. `nil` without heart rate.
    init?(series: HeartRateSeries, maxHeartRate: Double) {
        guard !series.isEmpty else { return nil }
        var times = [Double](repeating: 0, count: Self.bounds.count)
        var below = 0.0
        for interval in series.intervals {
            let mean = (interval.from + interval.to) / 2
            let length = interval.end - interval.start
            if let zone = Self.bounds.lastIndex(where: { mean >= $0 * maxHeartRate }) {
                times[zone] += length
            } else {
                below += length
            }
        }
        self.maxHeartRate = maxHeartRate
        self.below = below
        zones = Self.bounds.indices.map { index in
            Zone(
                zone: index + 1, fromBpm: Self.bounds[index] * maxHeartRate,
                toBpm: index + 1 < Self.bounds.count ? Self.bounds[index + 1] * maxHeartRate : nil, time: times[index])
        }
    }
}

extension HeartRateZones {
    /// One line of the zones as people read them: zone ("-" for the time below the first), bpm range, time, share.
    struct Row {
        var zone, range, time, share: String
    }

    /// The time below the first zone, then each zone, with its share of the time with heart rate.
    var rows: [Row] {
        let total = zones.map(\.time).reduce(below, +)
        func share(_ time: Double) -> String {
            total > 0 ? "\(NumberText.fixed(time / total * 100, decimals: 0)) %" : "–"
        }
        func bpm(_ value: Double) -> String { String(Int(value.rounded())) }
        let first =
            zones.first.map {
                [
                    Row(
                        zone: "-", range: "< \(bpm($0.fromBpm))", time: TimeFormat.duration(seconds: below),
                        share: share(below))
                ]
            } ?? []
        return first
            + zones.map { zone in
                Row(
                    zone: String(zone.zone),
                    range: zone.toBpm.map { "\(bpm(zone.fromBpm))–\(bpm($0))" } ?? "≥ \(bpm(zone.fromBpm))",
                    time: TimeFormat.duration(seconds: zone.time), share: share(zone.time))
            }
    }
}
