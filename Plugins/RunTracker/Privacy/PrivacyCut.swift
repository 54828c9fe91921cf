import Foundation
import MeridianCore

/// A run's points with what its privacy zones cut: the points an export, picture or map may show.
///
/// The distance run in a zone is not shown either: a visible point's distance is the run's distance there less
/// everything from the last visible point before a zone to the first one after it (so the first visible point of
/// a run that starts at home says 0 m, not how far home is). Totals come from the whole route.
package struct PrivacyCut: Sendable {
    /// Sequence numbers of the points in a zone.
    package let hidden: Set<Int>
    /// Each visible accepted point's distance as shown, by sequence number.
    private let shownDistance: [Int: Double]
    /// Each visible point's segment as shown (a new one after each cut), by sequence number.
    private let shownSegment: [Int: Int]

    /// Nothing cut.
    package static func whole(_ points: [TrackPoint]) -> PrivacyCut { PrivacyCut(points: points, hidden: []) }

    init(points: [TrackPoint], hidden: Set<Int>) {
        self.hidden = hidden
        guard !hidden.isEmpty else {
            (shownDistance, shownSegment) = ([:], [:])
            return
        }
        var shownDistance: [Int: Double] = [:]
        var shownSegment: [Int: Int] = [:]
        // `removed`: the distance cut so far; `lastVisible`: the run's distance at the last visible accepted point.
        var removed = 0.0, cuts = 0
        var lastVisible = 0.0
        var inZone = false
        var segment: (original: Int, cuts: Int)?
        var segmentIndex = -1
        for point in points {
            if hidden.contains(point.sequence) {
                if !inZone { cuts += 1 }
                inZone = true
                continue
            }
            if let distance = point.distance, point.isAccepted {
                // Everything from the last visible point before a zone to the first after it is left out.
                if inZone { removed += distance - lastVisible }
                shownDistance[point.sequence] = distance - removed
                lastVisible = distance
                inZone = false
            }
            if segment?.original != point.segment || segment?.cuts != cuts {
                segment = (point.segment, cuts)
                segmentIndex += 1
            }
            shownSegment[point.sequence] = segmentIndex
        }
        self.shownDistance = shownDistance
        self.shownSegment = shownSegment
    }

    /// True when the zones cut nothing.
    package var isEmpty: Bool { hidden.isEmpty }

    /// True when `point` lies in a zone.
    package func hides(_ point: TrackPoint) -> Bool { hidden.contains(point.sequence) }

    /// `point` as it may be shown, `nil` in a zone: its distance less what was run in zones before it.
    package func shown(_ point: TrackPoint) -> TrackPoint? {
        guard !isEmpty else { return point }
        guard !hides(point) else { return nil }
        var shown = point
        shown.distance = point.distance.flatMap { _ in shownDistance[point.sequence] }
        return shown
    }

    /// The points that may be shown, in order, for a map or a track file: each visible point as `shown(_:)` gives it,
    /// with a new segment after each cut so that no line is drawn across a zone. With `keepDistances` the points keep
    /// the run's distance (a map colours by pace along it; it then draws no distance marks, see `marksDistances`).
    package func visible(_ points: [TrackPoint], keepDistances: Bool = false) -> [TrackPoint] {
        guard !isEmpty else { return points }
        return points.compactMap { point in
            guard var shown = keepDistances ? (hides(point) ? nil : point) : shown(point) else { return nil }
            shown.segment = shownSegment[point.sequence] ?? point.segment
            return shown
        }
    }

    /// Whether a map may mark every kilometre: not once a zone cut something, since a mark's number beside a visible
    /// place says how far along the path the zone's door is.
    package var marksDistances: Bool { isEmpty }
}
