import Foundation
import Synchronization

/// Holds the latest fused fix and when it arrived.
public final class PositionBoard: Sendable {
    private let latestFix = Mutex<(fix: Fix, receivedAt: ContinuousClock.Instant)?>(nil)

    public init() {}

    /// Replaces the latest fix.
    public func update(_ fix: Fix, at instant: ContinuousClock.Instant = .now) {
        latestFix.withLock { $0 = (fix, instant) }
    }

    /// The latest fused fix, if any has arrived.
    public var latest: Fix? { latestFix.withLock { $0?.fix } }

    /// The latest fix that carries a position.
    public var latestPosition: Coordinate? { latestFix.withLock { $0?.fix.coordinate } }

    /// Seconds since the latest fix arrived.
    public func age(now: ContinuousClock.Instant = .now) -> Double? {
        latestFix.withLock { entry in
            entry.map { (now - $0.receivedAt).seconds }
        }
    }
}
