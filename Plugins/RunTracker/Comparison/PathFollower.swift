import Foundation
import MeridianCore

/// Follows a run along a `ReferencePath`: each sample is projected onto the edges near where the previous one was
/// found (no further ahead than the runner travelled, plus a margin), so a path that passes the same place twice
/// (a loop, an out-and-back) is matched in order and never jumps to the other pass.
struct PathFollower {
    let path: ReferencePath
    /// How far behind the previous position a sample may be found (GPS noise), metres.
    static let back = 20.0
    /// How far beyond the runner's own travel a sample may be found, metres.
    static let ahead = 30.0

    private(set) var position: PathPosition?

    init(path: ReferencePath) {
        self.path = path
    }

    /// Locates the first sample, searching the path from `distances.lowerBound` to `distances.upperBound`.
    mutating func start(at point: Coordinate, within distances: ClosedRange<Double>) -> PathPosition? {
        position = path.nearest(point, within: distances)
        return position
    }

    /// Locates the next sample, `travelled` metres from the previous one.
    mutating func next(_ point: Coordinate, travelled: Double) -> PathPosition? {
        guard let previous = position else { return nil }
        let low = previous.along - Self.back
        let high = previous.along + max(0, travelled) + Self.ahead
        position = path.nearest(point, within: low...max(low, high))
        return position
    }

    /// Follows every sample of `samples` from index `first` (located within `distances` of the path) for as long as
    /// `keepGoing` accepts each position and the sample's time; returns the progress and the index of the first sample
    /// not taken.
    mutating func follow(
        _ samples: TrackSamples, from first: Int, within distances: ClosedRange<Double>,
        keepGoing: (PathPosition, Double) -> Bool
    ) -> (PathProgress, Int) {
        var progress = PathProgress()
        var index = first
        while index < samples.count {
            let coordinate = samples.coordinates[index]
            let located =
                index == first
                ? start(at: coordinate, within: distances)
                : next(coordinate, travelled: FlatDistance.metres(samples.coordinates[index - 1], coordinate))
            guard let located, keepGoing(located, samples.times[index]) else { break }
            progress.append(time: samples.times[index], along: located.along, segment: samples.segments[index])
            index += 1
        }
        return (progress, index)
    }
}

/// A run's samples located on a path: (time, distance along the path) pairs, in the run's order.
struct PathProgress: Sendable {
    var times: [Double] = []
    var along: [Double] = []
    var segments: [Int] = []

    /// How far either side of a mark samples are fitted, metres.
    static let window = 15.0

    mutating func append(time: Double, along: Double, segment: Int) {
        times.append(time)
        self.along.append(along)
        segments.append(segment)
    }

    /// When the run passed `mark` metres along the path: a least-squares line of time over distance through the
    /// samples within `window` of the first passage (not across a pause or a stop), so that GPS noise along the path
    /// averages out; linear interpolation between the two samples around it when the line cannot be fitted.
    /// `nil` when the samples never reach the mark (or start more than `window` beyond it).
    func time(at mark: Double) -> Double? {
        guard let first = along.firstIndex(where: { $0 >= mark }) else { return nil }
        guard first > 0 || along[0] - mark <= Self.window else { return nil }
        var low = first, high = first
        while low > 0, continues(from: low - 1), along[low - 1] >= mark - Self.window { low -= 1 }
        while high + 1 < along.count, continues(from: high), along[high + 1] <= mark + Self.window { high += 1 }
        if let fitted = Self.fit(times: times[low...high], along: along[low...high], at: mark) { return fitted }
        guard first > 0, continues(from: first - 1), along[first] > along[first - 1] else { return times[first] }
        let fraction = (mark - along[first - 1]) / (along[first] - along[first - 1])
        return times[first - 1] + fraction * (times[first] - times[first - 1])
    }

    /// Whether samples `index` and `index + 1` belong to one stretch of running: the same tracker segment and no
    /// stop between them (more than 4 s at under 0.5 m/s, such as an auto-pause at a crossing).
    private func continues(from index: Int) -> Bool {
        let duration = times[index + 1] - times[index]
        return segments[index + 1] == segments[index]
            && !(duration > 4 && along[index + 1] - along[index] < 0.5 * duration)
    }

    /// The least-squares line of time over distance through the samples, evaluated at `mark`; `nil` for fewer than
    /// three samples, samples spread less than a metre, or a line that does not go forward.
    private static func fit(times: ArraySlice<Double>, along: ArraySlice<Double>, at mark: Double) -> Double? {
        guard times.count >= 3, let line = LeastSquaresLine(x: along, y: times), line.varianceX >= 1, line.slope > 0
        else {
            return nil
        }
        return line.value(at: mark)
    }
}
