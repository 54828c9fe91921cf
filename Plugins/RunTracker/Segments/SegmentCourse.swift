import Foundation
import MeridianCore

/// A segment's path with what finding efforts on it needs: a run has an effort when it passes the start, follows the
/// path forwards within `gate` metres of it (straying no farther than `approach` for no longer than `excursion`), and
/// reaches the end within `gate`; the start and end times are interpolated where the run crosses them
/// (`PathProgress.time(at:)`), not taken from the nearest point.
struct SegmentCourse: Sendable {
    let path: ReferencePath
    /// How far from the path a run may be, metres.
    static let gate = 25.0
    /// How near the start a run must come for its passage to be followed, metres.
    static let approach = 50.0
    /// How long a run may be beyond `gate` (but within `approach`) and come back, seconds: GPS drifting under trees or
    /// between buildings for a few fixes does not end an effort, running another way does.
    static let excursion = 15.0

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
        var strayedAt: Double?
        let length = self.length
        let (progress, next) = follower.follow(samples, from: first, within: -Self.approach...Self.approach) {
            position, time in
            let onPath = position.offset <= Self.gate
            if reachedEnd { return onPath && position.along <= length + PathProgress.window }
            if position.along >= length {
                reachedEnd = onPath
                return onPath
            }
            guard position.along >= 0 else { return position.along >= -Self.approach }
            if onPath { strayedAt = nil } else if strayedAt == nil { strayedAt = time }
            return onPath || (position.offset <= Self.approach && time - (strayedAt ?? time) <= Self.excursion)
        }
        guard reachedEnd, let start = progress.time(at: 0), let end = progress.time(at: length), end > start else {
            return nil
        }
        return (SegmentPassage(startOffset: start, elapsedTime: end - start), next)
    }
}

/// One passage of a run over a segment: seconds from the run's start to the start crossing, and the elapsed time.
struct SegmentPassage: Sendable, Equatable {
    var startOffset: Double
    var elapsedTime: Double
}
