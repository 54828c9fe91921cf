import ActivityFiles
import Foundation

/// `--relative-time` (`relative_time=true`): an export without the day and hour the run took place. Every time is
/// moved so that the run starts at `epoch`; what is left is the time since the start.
package enum RelativeTime {
    /// The start of every run exported with relative times: 1989-12-31T00:00:00Z, the FIT epoch (a FIT timestamp of
    /// 0, which the FIT profile also reads as time since the device started). GPX, TCX and GeoJSON need a date and
    /// get the same one, so all four formats agree.
    package static let epoch = Date(timeIntervalSince1970: 631_065_600)

    /// The run, its points and its laps with every time moved so that the run starts at `epoch`.
    package static func shift(run: RunSummary, points: [TrackPoint], laps: [DeviceLap])
        -> (RunSummary, [TrackPoint], [DeviceLap])
    {
        let offset = epoch.timeIntervalSince(run.startedAt)
        var run = run
        run.startedAt = epoch
        run.endedAt = run.endedAt?.addingTimeInterval(offset)
        let points = points.map { point in
            var point = point
            point.time = point.time.addingTimeInterval(offset)
            return point
        }
        let laps = laps.map { lap in
            var lap = lap
            lap.start = lap.start.addingTimeInterval(offset)
            return lap
        }
        return (run, points, laps)
    }
}
