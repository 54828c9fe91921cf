import ActivityFiles
import Foundation
import MeridianCore

/// A run that starts or ends in a privacy zone, as a file or picture that leaves the owner's hands shows it: from its
/// first visible position to its last, with that stretch's times and totals.
///
/// Cutting the points alone is not enough: the run's start time and the time its track appears, or its total
/// distance and the visible track's length, tell how far the door is, and 100 exports give it away by
/// multilateration (within 2 m, `PrivacyBruteForceTests`). So the stretch before the first visible point (when a zone
/// hides a point before it) and after the last one (likewise) is left out whole: its time, its distance, its
/// records. Zones crossed in the middle of a run are only cut (`PrivacyCut`).
package enum PrivacyTrim {
    /// `run`, `points` and `laps` as their visible stretch: its start and end times, elapsed, timer and moving time,
    /// pace and counts; its points, each with its distance as the cut shows it (from 0, without the zones crossed on
    /// the way), and the last one's as the distance; the laps cut to it; a name made from the start time made from the
    /// new one; and `cut` for those points (what the zones hide of them, without testing them again). Returned
    /// unchanged when no zone hides a point before the first visible one or after the last, and when none is visible.
    package static func visibleStretch(
        run: RunSummary, points: [TrackPoint], laps: [DeviceLap], cut: PrivacyCut
    ) -> (run: RunSummary, points: [TrackPoint], laps: [DeviceLap], cut: PrivacyCut) {
        let unchanged = (run, points, laps, cut)
        guard !cut.isEmpty else { return unchanged }
        let visible = { (point: TrackPoint) in point.coordinate != nil && !cut.hides(point) }
        guard let firstVisible = points.firstIndex(where: visible), let lastVisible = points.lastIndex(where: visible)
        else { return unchanged }
        let hiddenBefore = points[..<firstVisible].contains(where: cut.hides)
        let hiddenAfter = points[(lastVisible + 1)...].contains(where: cut.hides)
        guard hiddenBefore || hiddenAfter else { return unchanged }
        let kept = Array(points[(hiddenBefore ? firstVisible : 0)...(hiddenAfter ? lastVisible : points.count - 1)])
        // Each point's distance as the cut shows it (from 0 at the first visible point, without what was run in the
        // zones crossed on the way; flat across them), so that records, laps and totals agree.
        var shownDistance = 0.0
        let shownPoints = kept.map { point in
            var point = point
            if point.isAccepted, point.distance != nil {
                shownDistance = cut.shown(point)?.distance ?? shownDistance
                point.distance = shownDistance
            }
            return point
        }

        var trimmed = run
        trimmed.startedAt = hiddenBefore ? kept[0].time : run.startedAt
        trimmed.endedAt = hiddenAfter ? kept[kept.count - 1].time : run.endedAt
        trimmed.distance = shownDistance
        trimmed.elapsedTime = max(0, (trimmed.endedAt ?? trimmed.startedAt).timeIntervalSince(trimmed.startedAt))
        let leftOut =
            (hiddenBefore ? runningTime(points[...firstVisible], from: run.startedAt, to: nil) : 0)
            + (hiddenAfter ? runningTime(points[lastVisible...], from: nil, to: run.endedAt) : 0)
        trimmed.timerTime = min(trimmed.elapsedTime, max(0, run.timerTime - leftOut))
        trimmed.movingTime = min(trimmed.timerTime, max(0, run.movingTime - leftOut))
        trimmed.averagePace = trimmed.distance > 0 ? trimmed.timerTime / (trimmed.distance / 1000) : nil
        trimmed.pointCount = kept.count
        trimmed.rejectedPointCount = kept.count { !$0.isAccepted }
        trimmed.segmentCount = Set(kept.filter(\.isAccepted).map(\.segment)).count
        if run.name == run.activity.runName(startedAt: run.startedAt) {
            trimmed.name = run.activity.runName(startedAt: trimmed.startedAt)
        }
        return (
            trimmed, shownPoints, self.laps(laps, within: trimmed, points: points, shown: shownPoints),
            PrivacyCut(points: shownPoints, hidden: cut.hidden.intersection(shownPoints.map(\.sequence)))
        )
    }

    /// The time the run's timer ran over `points` (consecutive in the run): between each two of one segment, neither
    /// received while paused, and from `start` to the first or from the last to `end` when given.
    private static func runningTime(_ points: ArraySlice<TrackPoint>, from start: Date?, to end: Date?) -> Double {
        var total = 0.0
        for (before, after) in zip(points, points.dropFirst())
        where before.segment == after.segment && before.rejection != .paused && after.rejection != .paused {
            total += max(0, after.time.timeIntervalSince(before.time))
        }
        if let start, let first = points.first { total += max(0, first.time.timeIntervalSince(start)) }
        if let end, let last = points.last { total += max(0, end.timeIntervalSince(last.time)) }
        return total
    }

    /// The laps that overlap the stretch of `run`, each cut to it: its time less what lies outside, its distance as
    /// the `shown` points tell it (the device's own reading of the lap kept beside the route's).
    private static func laps(_ laps: [DeviceLap], within run: RunSummary, points: [TrackPoint], shown: [TrackPoint])
        -> [DeviceLap]
    {
        let start = run.startedAt, end = run.endedAt ?? run.startedAt
        // The run's distance at any time, as run and as shown (each found by binary search: a long run has many laps).
        let asRun = RunProgress(points: points, start: start), asShown = RunProgress(points: shown, start: start)
        return laps.compactMap { lap in
            let lapEnd = lap.start.addingTimeInterval(lap.timerTime ?? 0)
            guard lapEnd > start, lap.start < end else { return nil }
            var cut = lap
            let from = max(lap.start, start), to = min(lapEnd, end)
            cut.start = from
            cut.timerTime = lap.timerTime.map { _ in to.timeIntervalSince(from) }
            cut.distance = lap.distance.map { device in
                let route =
                    asRun.distance(at: lapEnd.timeIntervalSince(start))
                    - asRun.distance(at: lap.start.timeIntervalSince(start))
                let shownRoute =
                    asShown.distance(at: to.timeIntervalSince(start))
                    - asShown.distance(at: from.timeIntervalSince(start))
                return max(0, device - route + shownRoute)
            }
            return cut
        }
    }
}
