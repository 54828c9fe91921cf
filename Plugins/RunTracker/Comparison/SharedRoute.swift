import MeridianCore

/// Two runs of one route timed at the same places: both are followed along the first run's path
/// (`PathFollower`) and timed where they pass each mark (`PathProgress.time(at:)`), so the difference is pure time,
/// not a difference in how each run's GPS distance grew.
struct SharedRoute {
    /// The first run's path: every trustworthy fix, simplified to `RunTrack.tolerance`.
    let path: ReferencePath
    let first: PathProgress
    let second: PathProgress

    /// Metres between two marks of the gap.
    static let gapSpacing = 100.0
    /// How far into the path the second run may start, metres (a route's starts are within 100 m).
    static let startReach = 150.0

    /// `nil` when the first run has no path.
    init?(_ a: TrackSamples, _ b: TrackSamples) {
        path = ReferencePath(Geodesic.wgs84.simplified(a.coordinates, tolerance: RunTrack.tolerance))
        guard path.edgeCount > 0 else { return nil }
        first = Self.progress(of: a, on: path)
        second = Self.progress(of: b, on: path)
    }

    /// At every `gapSpacing` metres of the path that both runs pass, B's time since its start minus A's, in seconds:
    /// positive where B is behind, negative where it is ahead (as if both had started together).
    var gap: [GapPoint] {
        marks(every: Self.gapSpacing).compactMap { mark, times in
            times.map { GapPoint(distance: mark, delta: $0.b - $0.a) }
        }
    }

    /// Splits every `unitDistance` metres of the path, each run timed between the same two places.
    func splits(every unitDistance: Double) -> [SplitComparison] {
        let marks = self.marks(every: unitDistance)
        return zip(marks, marks.dropFirst()).enumerated().map { index, pair in
            let (start, end) = (pair.0.times, pair.1.times)
            let a = start.flatMap { start in end.map { $0.a - start.a } }
            let b = start.flatMap { start in end.map { $0.b - start.b } }
            return SplitComparison(
                index: index + 1, distance: pair.1.distance, a: a, b: b,
                delta: a.flatMap { a in b.map { $0 - a } })
        }
    }

    /// Every `spacing` metres from the path's start to its end: the distance and when each run passed it.
    private func marks(every spacing: Double) -> [(distance: Double, times: (a: Double, b: Double)?)] {
        stride(from: 0.0, through: path.length, by: spacing).map { mark in
            guard let a = first.time(at: mark), let b = second.time(at: mark) else { return (mark, nil) }
            return (mark, (a, b))
        }
    }

    /// `samples` located along `path`, in order.
    static func progress(of samples: TrackSamples, on path: ReferencePath) -> PathProgress {
        var follower = PathFollower(path: path)
        return follower.follow(samples, from: 0, within: -startReach...startReach) { _, _ in true }.0
    }
}

/// A mark of the time gap: `{"distance_m", "delta_s"}`.
package struct GapPoint: Sendable, Equatable, Codable {
    /// Metres along the first run's path.
    package var distance: Double
    /// The second run's time since its start minus the first's, seconds (positive: the second is behind).
    package var delta: Double

    enum CodingKeys: String, CodingKey {
        case distance = "distanceM"
        case delta = "deltaS"
    }
}
