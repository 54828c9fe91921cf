import Foundation
import MeridianCore

/// Where a run was, second by second, as compact arrays: every fix with a trustworthy position (the accepted route
/// points, and the fixes the tracker skipped only because they were too close to the previous route point or
/// while standing), for timing segment efforts and the gap between two runs where the runner passed.
package struct TrackSamples: Sendable, Equatable {
    /// Seconds since the run's `started_at`.
    package private(set) var times: [Double] = []
    package private(set) var coordinates: [Coordinate] = []
    /// The run's distance at each sample (the tracker's, which grows only at accepted points), metres.
    package private(set) var distances: [Double] = []
    /// The tracker's segment of each sample (pauses and unbridged gaps start a new one).
    package private(set) var segments: [Int] = []
    /// Whether each sample is a route point (accepted by the tracker).
    package private(set) var accepted: [Bool] = []

    /// Rejections that say nothing against the position itself.
    private static let goodPositions: Set<PointRejection> = [.belowSamplingDistance, .stationaryDrift]

    /// The samples of a run that started at `start`.
    package init(points: [TrackPoint], start: Date) {
        // Room for every point at once: growing five arrays by doubling would leave their old buffers behind.
        times.reserveCapacity(points.count)
        coordinates.reserveCapacity(points.count)
        distances.reserveCapacity(points.count)
        segments.reserveCapacity(points.count)
        accepted.reserveCapacity(points.count)
        var distance = 0.0
        for point in points where point.rejection.map(Self.goodPositions.contains) ?? true {
            guard let coordinate = point.coordinate else { continue }
            if point.isAccepted, let value = point.distance { distance = value }
            times.append(point.time.timeIntervalSince(start))
            coordinates.append(coordinate)
            distances.append(distance)
            segments.append(point.segment)
            accepted.append(point.isAccepted)
        }
    }

    package var count: Int { times.count }
    package var isEmpty: Bool { times.isEmpty }

    /// The route points: the accepted samples' coordinates.
    package var route: [Coordinate] {
        // Straight into the result: no array of (coordinate, flag) pairs on the way (24 MB at a million samples).
        var route: [Coordinate] = []
        route.reserveCapacity(accepted.count { $0 })
        for index in coordinates.indices where accepted[index] { route.append(coordinates[index]) }
        return route
    }
}
