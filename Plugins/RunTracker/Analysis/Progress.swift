import Foundation
import MeridianCore

/// A run reduced to what splits and best efforts need: for every accepted point, the seconds since the
/// run's start and the run's distance there in metres, as the tracker counted it. Distance never grows across
/// pauses, time does: efforts and splits use elapsed time.
public struct RunProgress: Sendable, Equatable {
    /// Seconds since the run's `started_at`, non-decreasing.
    public private(set) var times: [Double]
    /// Cumulative metres, non-decreasing, starting at 0.
    public private(set) var distances: [Double]

    public init(times: [Double], distances: [Double]) {
        let count = min(times.count, distances.count)
        self.times = Array(times.prefix(count))
        self.distances = Array(distances.prefix(count))
    }

    /// Builds the progress of the accepted points of a run that started at `start`, from the distance the tracker
    /// counted at each of them.
    public init(points: [TrackPoint], start: Date) {
        var times: [Double] = []
        var distances: [Double] = []
        times.reserveCapacity(points.count)
        distances.reserveCapacity(points.count)
        for point in points where point.isAccepted {
            guard let distance = point.distance else { continue }
            times.append(point.time.timeIntervalSince(start))
            distances.append(distance)
        }
        self.init(times: times, distances: distances)
    }

    /// The points that make up the route: accepted and with a position, in order.
    public static func usable(_ points: [TrackPoint]) -> [TrackPoint] {
        points.filter { $0.isAccepted && $0.coordinate != nil }
    }

    public var count: Int { times.count }
    public var isEmpty: Bool { times.isEmpty }
    /// Total distance, metres.
    public var totalDistance: Double { distances.last ?? 0 }

    /// The earliest time at which the cumulative distance reaches `distance`, interpolated linearly between
    /// the two samples around it; `nil` beyond the end. `from` is a sample index at or before the answer,
    /// to continue a forward sweep; it is advanced.
    public func timeReaching(_ distance: Double, from index: inout Int) -> Double? {
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

    // MARK: Packed form

    /// Little-endian float64 pairs (time, distance), the format of `run_progress.samples`.
    public var packed: Data {
        var data = Data(count: count * 16)
        data.withUnsafeMutableBytes { raw in
            for index in 0..<count {
                raw.storeBytes(of: times[index].bitPattern.littleEndian, toByteOffset: index * 16, as: UInt64.self)
                raw.storeBytes(of: distances[index].bitPattern.littleEndian, toByteOffset: index * 16 + 8, as: UInt64.self)
            }
        }
        return data
    }

    /// Reads `packed`; `nil` when the length is not a whole number of pairs.
    public init?(packed data: Data) {
        guard data.count % 16 == 0 else { return nil }
        let count = data.count / 16
        var times = [Double](repeating: 0, count: count)
        var distances = [Double](repeating: 0, count: count)
        data.withUnsafeBytes { raw in
            for index in 0..<count {
                times[index] = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 16, as: UInt64.self)))
                distances[index] = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 16 + 8, as: UInt64.self)))
            }
        }
        self.times = times
        self.distances = distances
    }
}
