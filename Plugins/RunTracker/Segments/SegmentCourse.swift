import Foundation
import MeridianCore

/// A segment's path with what finding efforts on it needs: a run has an effort when it passes the start, stays
/// within `gate` metres of the path all along it, and reaches the end; the start and end times are interpolated
/// where the run crosses them (`PathProgress.time(at:)`), not taken from the nearest point.
struct SegmentCourse: Sendable {
    let path: ReferencePath
    /// How far from the path a run may be, metres.
    static let gate = 25.0
    /// How near the start a run must come for its passage to be followed, metres.
    static let approach = 50.0

    init(path: [Coordinate]) {
        self.path = ReferencePath(path)
    }

    var length: Double { path.length }

    /// Every passage of `samples` over the segment, in the run's order.
    func efforts(in samples: TrackSamples) -> [SegmentPassage] {
        guard let start = path.vertices.first, path.edgeCount > 0 else { return [] }
        let near = NearnessTest(limit: Self.approach)
        var passages: [SegmentPassage] = []
        var index = 0
        while index < samples.count {
            guard near.isNear(samples.coordinates[index], start) else {
                index += 1
                continue
            }
            if let (passage, next) = follow(samples, from: index) {
                passages.append(passage)
                index = next
            } else {
                // Not along the segment from here: go on once the run has left the start's surroundings.
                index += 1
                while index < samples.count, near.isNear(samples.coordinates[index], start) { index += 1 }
            }
        }
        return passages
    }

    /// Follows the run from sample `first` (near the start) along the path; the passage and the sample to go on
    /// from, or `nil` when the run leaves the path before the end or never reaches it.
    private func follow(_ samples: TrackSamples, from first: Int) -> (SegmentPassage, Int)? {
        var follower = PathFollower(path: path)
        var reachedEnd = false
        let length = self.length
        let (progress, next) = follower.follow(samples, from: first, within: -Self.approach...Self.approach) { position in
            let onPath = position.offset <= Self.gate
            if reachedEnd { return onPath && position.along <= length + PathProgress.window }
            if position.along >= length {
                reachedEnd = onPath
                return onPath
            }
            return position.along >= 0 ? onPath : position.along >= -Self.approach
        }
        guard reachedEnd, let start = progress.time(at: 0), let end = progress.time(at: length), end > start else { return nil }
        return (SegmentPassage(startOffset: start, elapsedTime: end - start), next)
    }
}

/// One passage of a run over a segment: seconds from the run's start to the start crossing, and the elapsed time.
struct SegmentPassage: Sendable, Equatable {
    var startOffset: Double
    var elapsedTime: Double
}
