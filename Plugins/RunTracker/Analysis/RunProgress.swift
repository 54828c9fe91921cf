import Foundation
import MeridianCore

/// A run reduced to what splits and best efforts need: for every accepted point, the seconds since the
/// run's start and the run's distance there in metres, as the tracker counted it, and the pauses. Distance never
/// grows across pauses, time does: efforts use elapsed time (pauses count, as on Strava), splits the timer (pauses
/// left out, as the live splits and the devices do).
package struct RunProgress: Sendable, Equatable {
    /// Seconds since the run's `started_at`, non-decreasing.
    package private(set) var times: [Double]
    /// Cumulative metres, non-decreasing, starting at 0.
    package private(set) var distances: [Double]
    /// The pauses, seconds since the start, in order: from the last point before a pause to the first after it.
    package private(set) var pauses: [ClosedRange<Double>]

    package init(times: [Double], distances: [Double], pauses: [ClosedRange<Double>] = []) {
        let count = min(times.count, distances.count)
        self.times = Array(times.prefix(count))
        self.distances = Array(distances.prefix(count))
        self.pauses = pauses
    }

    /// Builds the progress of the accepted points of a run that started at `start`, from the distance the tracker
    /// counted at each of them.
    package init(points: [TrackPoint], start: Date) {
        var times: [Double] = []
        var distances: [Double] = []
        var pauses: [ClosedRange<Double>] = []
        times.reserveCapacity(points.count)
        distances.reserveCapacity(points.count)
        var segment: Int?
        for point in points where point.isAccepted {
            guard let distance = point.distance else { continue }
            let time = point.time.timeIntervalSince(start)
            // A new segment starts after a pause (or, rarely, after a jump the tracker could not bridge).
            if let segment, point.segment != segment, let previous = times.last, time > previous {
                pauses.append(previous...time)
            }
            segment = point.segment
            times.append(time)
            distances.append(distance)
        }
        self.init(times: times, distances: distances, pauses: pauses)
    }

    /// The points that make up the route: accepted and with a position, in order.
    package static func usable(_ points: [TrackPoint]) -> [TrackPoint] {
        points.filter { $0.isAccepted && $0.coordinate != nil }
    }

    package var count: Int { times.count }
    package var isEmpty: Bool { times.isEmpty }
    /// Total distance, metres.
    package var totalDistance: Double { distances.last ?? 0 }

    /// The distance at `time` seconds since the start: that of the last sample at or before it (0 before the first).
    package func distance(at time: Double) -> Double {
        let after = times.partitioningIndex { $0 > time }
        return after == 0 ? 0 : distances[after - 1]
    }

    /// The earliest time at which the cumulative distance reaches `distance`, interpolated linearly between
    /// the two samples around it; `nil` beyond the end. `from` is a sample index at or before the answer,
    /// to continue a forward sweep; it is advanced.
    package func timeReaching(_ distance: Double, from index: inout Int) -> Double? {
        guard let last = distances.last, distance <= last, !distances.isEmpty else { return nil }
        if index < 0 { index = 0 }
        while index < distances.count && distances[index] < distance { index += 1 }
        guard index < distances.count else { return nil }
        if index == 0 || distances[index] == distance { return times[index] }
        return interpolate(from: index - 1, to: index, at: distance)
    }

    /// Time at `distance` on the straight line between samples `a` and `b` (where `distances[a] < distances[b]`).
    func interpolate(from a: Int, to b: Int, at distance: Double) -> Double {
        let span = distances[b] - distances[a]
        guard span > 0 else { return times[b] }
        return times[a] + (times[b] - times[a]) * (distance - distances[a]) / span
    }

    /// Seconds of `start...end` spent in pauses.
    package func pausedTime(from start: Double, to end: Double) -> Double {
        pauses.reduce(0) { total, pause in total + max(0, min(end, pause.upperBound) - max(start, pause.lowerBound)) }
    }

    // MARK: Packed form

    /// Little-endian float64 pairs (start, end) of the pauses, the format of `run_progress.pauses`.
    package var packedPauses: Data {
        PackedPairs.pack(count: pauses.count) { (pauses[$0].lowerBound, pauses[$0].upperBound) }
    }

    /// Reads `packedPauses` into this progress; `false` (and no change) when the data is not whole ordered pairs.
    package mutating func unpackPauses(_ data: Data) -> Bool {
        var read: [ClosedRange<Double>] = []
        let valid = PackedPairs.unpack(data) { start, end in
            guard start.isFinite, end.isFinite, start <= end else { return false }
            read.append(start...end)
            return true
        }
        guard valid else { return false }
        pauses = read
        return true
    }

    /// Little-endian float64 pairs (time, distance), the format of `run_progress.samples`.
    package var packed: Data {
        PackedPairs.pack(count: count) { (times[$0], distances[$0]) }
    }

    /// Reads `packed`; `nil` when the length is not a whole number of pairs.
    package init?(packed data: Data) {
        var times: [Double] = []
        var distances: [Double] = []
        times.reserveCapacity(data.count / 16)
        distances.reserveCapacity(data.count / 16)
        let valid = PackedPairs.unpack(data) { time, distance in
            times.append(time)
            distances.append(distance)
            return true
        }
        guard valid else { return nil }
        self.init(times: times, distances: distances)
    }
}
