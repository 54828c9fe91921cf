import Foundation

/// The time the live run tracks a fix at.
///
/// A fix keeps its own time when that time is believable for the run: from a little before the run's start (a clock a
/// moment behind; such a fix counts at the start) to `futureTolerance` ahead of the service clock. A phone's clock is
/// right to the second, and its offline queue, sent minutes later, then keeps its true spacing: it adds the same
/// distance and moving time as the same points imported from a file. Any other fix (a replay of an old file, a
/// receiver whose clock is wrong) is timed by the service clock, just after the previous one.
enum LiveFixTime: Equatable {
    /// At its own time, newer than every fix the run has.
    case next(Date)
    /// At its own time, older than the newest fix the run has: it goes into its place (`LiveRunController.backfill`).
    case late(Date)
    /// Its own time is not believable: timed by the service clock, just after the run's newest fix.
    case serviceClock(Date)

    /// How far ahead of the service clock a fix's own time may be, seconds (as the phone feeds allow).
    static let futureTolerance = 120.0
    /// How far before the run's start a fix's own time may be and still count (at the start), seconds.
    static let startTolerance = 5.0

    /// Judges a fix stamped `time` for a run that started at `runStart`, whose newest fix is at `newest`.
    static func judge(_ time: Date, runStart: Date, newest: Date?, now: Date) -> LiveFixTime {
        let believable =
            time >= runStart.addingTimeInterval(-startTolerance) && time <= now.addingTimeInterval(futureTolerance)
        guard believable else {
            return .serviceClock(max(now, newest.map { $0.addingTimeInterval(0.001) } ?? now))
        }
        let own = max(time, runStart)
        if let newest, own <= newest { return .late(own) }
        return .next(own)
    }
}
