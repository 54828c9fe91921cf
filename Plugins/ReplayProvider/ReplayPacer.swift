import Foundation

/// Decides when each fix of a replay is due and what time it carries.
///
/// At `speed` 1 fixes are due as far apart as their timestamps, at 10 ten times
/// faster, at 0 immediately. When a fix's time goes backwards the schedule restarts
/// from it. With `retime`, a pass's first fix is stamped with the pass's start time
/// and later ones follow at the replay rate.
package struct ReplayPacer: Sendable {
    package let speed: Double
    package let retime: Bool
    private var anchor: (fixTime: Date, wall: Date)?
    private var passStart: (fixTime: Date, wall: Date)?
    package init(speed: Double, retime: Bool) {
        self.speed = speed
        self.retime = retime
    }

    /// Starts a new pass over the file at wall time `now`.
    package mutating func startPass(now: Date) {
        anchor = nil
        passStart = nil
        startWall = now
    }

    private var startWall = Date()

    /// Seconds to wait before emitting a fix stamped `time`, given wall time `now`.
    package mutating func delay(for time: Date, now: Date) -> TimeInterval {
        if passStart == nil { passStart = (time, startWall) }
        guard speed > 0 else { return 0 }
        if let anchor, time >= anchor.fixTime {
            let due = anchor.wall.addingTimeInterval(time.timeIntervalSince(anchor.fixTime) / speed)
            return max(0, due.timeIntervalSince(now))
        }
        anchor = (time, now)
        return 0
    }

    /// The time to stamp on a fix recorded at `time` (unchanged unless `retime`).
    package func stamp(_ time: Date) -> Date {
        guard retime, let passStart else { return time }
        let rate = speed > 0 ? speed : 1
        return passStart.wall.addingTimeInterval(time.timeIntervalSince(passStart.fixTime) / rate)
    }
}
