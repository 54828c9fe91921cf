import ActivityFiles
import Foundation
import MeridianCore
import RunTracker

/// A course on the ground (a loop or an open path) and deterministic recordings of runs along it, with the truth:
/// where each run really was every second. For tests of routes, segments and comparisons, and for the route benchmark.
package struct SyntheticCourse: Sendable {
    package let path: ReferencePath

    /// The course through `coordinates`.
    package init(_ coordinates: [Coordinate]) {
        path = ReferencePath(coordinates)
    }

    /// The course through `waypoints`, given as metres east and north of `origin`.
    package init(origin: Coordinate, waypoints: [(east: Double, north: Double)]) {
        self.init(
            waypoints.compactMap { point in
                let distance = (point.east * point.east + point.north * point.north).squareRoot()
                guard distance > 0 else { return origin }
                let bearing = atan2(point.east, point.north) * 180 / .pi
                return try? Geodesic.wgs84.direct(from: origin, bearing: bearing, distance: distance).destination
            })
    }

    /// A rectangular loop from `origin` (its first corner) `width` by `height` metres, turned `heading` degrees
    /// clockwise from north-east, run clockwise or the other way round.
    package static func loop(
        origin: Coordinate, width: Double, height: Double, heading: Double = 0,
        clockwise: Bool = true
    ) -> SyntheticCourse {
        let corners: [(Double, Double)] =
            clockwise
            ? [(0, 0), (0, height), (width, height), (width, 0), (0, 0)]
            : [(0, 0), (width, 0), (width, height), (0, height), (0, 0)]
        let angle = heading * .pi / 180
        return SyntheticCourse(
            origin: origin,
            waypoints: corners.map { east, north in
                (east * cos(angle) + north * sin(angle), -east * sin(angle) + north * cos(angle))
            })
    }

    /// The same course run the other way.
    package func reversed() -> SyntheticCourse {
        SyntheticCourse(path.vertices.reversed())
    }

    /// A run along the course at 1 Hz from its start to its end: `speed` gives metres per second at each distance
    /// along the course, every fix is off the course by `jitter` metres (standard deviation, in a random
    /// direction), with 4 m accuracy and the receiver's speed. The same seed gives the same run.
    package func run(
        id: String, name: String, activity: Activity = .run, startedAt: Date, jitter: Double = 2,
        seed: UInt64 = 1, speed: (Double) -> Double
    ) -> CourseRun {
        var random = SeededRandom(seed: seed)
        var fixes: [Fix] = []
        var truth: [Double] = []
        var along = 0.0
        var second = 0
        while true {
            if let onCourse = path.coordinate(at: along) {
                let east = jitter * Self.gaussian(&random), north = jitter * Self.gaussian(&random)
                let offset = (east * east + north * north).squareRoot()
                let position =
                    offset > 0
                    ? (try? Geodesic.wgs84.direct(
                        from: onCourse, bearing: atan2(east, north) * 180 / .pi, distance: offset))?.destination
                    : onCourse
                fixes.append(
                    Fix(
                        time: startedAt.addingTimeInterval(Double(second)), coordinate: position ?? onCourse,
                        altitudeMSL: 100, speed: along >= path.length ? 0 : speed(along), horizontalAccuracy: 4,
                        mode: .threeD, providerID: "synthetic"))
                truth.append(along)
            }
            guard along < path.length else { break }
            along = min(path.length, along + max(0.1, speed(along)))
            second += 1
        }
        return CourseRun(id: id, name: name, activity: activity, startedAt: startedAt, fixes: fixes, truth: truth)
    }

    /// A standard normal number (Box–Muller).
    static func gaussian(_ random: inout SeededRandom) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// A recording along a `SyntheticCourse`, with where the runner really was.
package struct CourseRun: Sendable {
    package var id: String
    package var name: String
    package var activity: Activity
    package var startedAt: Date
    /// One fix a second, in time order.
    package var fixes: [Fix]
    /// The true distance along the course at each fix.
    package var truth: [Double]

    /// The fixes as a recording to import with `RunStore.importRun`.
    package var recording: RecordedActivity {
        RecordedActivity(format: .nmea, startTime: startedAt, samples: fixes.map(RecordedSample.init))
    }

    /// Seconds from the start until the runner really reached `distance` along the course (linear between fixes).
    package func time(at distance: Double) -> Double? {
        guard let index = truth.firstIndex(where: { $0 >= distance }) else { return nil }
        guard index > 0 else { return 0 }
        return Double(index - 1) + (distance - truth[index - 1]) / (truth[index] - truth[index - 1])
    }
}
