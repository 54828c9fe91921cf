import Foundation
import MeridianCore

/// Altitude and pace along the run, in equal slices of distance (for charts).
package struct Profile: Sendable, Equatable, Codable {
    /// One slice.
    package struct Sample: Sendable, Equatable, Codable {
        /// Distance at the middle of the slice, metres.
        package var distance: Double
        /// Mean altitude of the slice's points, metres; `nil` without altitude.
        @NullWhenAbsent package var altitude: Double?
        /// Moving pace over the slice, seconds per kilometre (time between points of the same segment only,
        /// so pauses do not show as slow); `nil` when nothing moved.
        @NullWhenAbsent package var pace: Double?

        enum CodingKeys: String, CodingKey {
            case distance = "distanceM"
            case altitude = "altitudeM"
            case pace = "paceSPerKm"
        }
    }

    /// Metres per slice.
    package var sliceLength: Double
    package var samples: [Sample]
    /// Lowest and highest altitude of the accepted points.
    @NullWhenAbsent package var minAltitude: Double?
    @NullWhenAbsent package var maxAltitude: Double?

    enum CodingKeys: String, CodingKey {
        case sliceLength = "sliceM"
        case samples
        case minAltitude = "minAltitudeM"
        case maxAltitude = "maxAltitudeM"
    }

    /// Slices the accepted points into at most `slices` pieces of at least 10 m.
    package init(points: [TrackPoint], slices: Int = 200, geodesic: Geodesic = .wgs84) {
        struct Step {
            var distance: Double
            var altitude: Double?
            var moveDistance: Double
            var moveTime: Double
        }
        var steps: [Step] = []
        var previous: TrackPoint?
        var total = 0.0
        for point in points where point.isAccepted && point.coordinate != nil {
            var moved = 0.0, time = 0.0
            if let previous, let from = previous.coordinate, let to = point.coordinate,
                previous.segment == point.segment
            {
                moved = geodesic.distance(from, to)
                time = point.time.timeIntervalSince(previous.time)
            }
            total += moved
            steps.append(
                Step(
                    distance: total, altitude: point.altitude.flatMap { $0.isFinite ? $0 : nil },
                    moveDistance: moved, moveTime: time))
            previous = point
        }
        let altitudes = steps.compactMap(\.altitude)
        minAltitude = altitudes.min()
        maxAltitude = altitudes.max()
        let count = max(1, min(slices, Int(total / 10)))
        let sliceLength = total > 0 ? total / Double(count) : 0
        self.sliceLength = sliceLength
        guard total > 0 else {
            samples = []
            return
        }
        var altitudeSum = [Double](repeating: 0, count: count)
        var altitudeCount = [Int](repeating: 0, count: count)
        var moveDistance = [Double](repeating: 0, count: count)
        var moveTime = [Double](repeating: 0, count: count)
        for step in steps {
            let slice = min(count - 1, Int(step.distance / sliceLength))
            if let altitude = step.altitude {
                altitudeSum[slice] += altitude
                altitudeCount[slice] += 1
            }
            moveDistance[slice] += step.moveDistance
            moveTime[slice] += step.moveTime
        }
        samples = (0..<count).map { slice in
            Sample(
                distance: (Double(slice) + 0.5) * sliceLength,
                altitude: altitudeCount[slice] > 0 ? altitudeSum[slice] / Double(altitudeCount[slice]) : nil,
                pace: moveDistance[slice] > 0 ? moveTime[slice] / moveDistance[slice] * 1000 : nil)
        }
    }
}
