import Foundation
import Synchronization

/// A consumer that keeps data in memory while its store refuses writes (busy, full, read-only) and writes
/// it when the store takes writes again; `/health` shows what waits.
public protocol HoldsPendingWrites: Sendable {
    /// What waits to be written, or `nil` while writes succeed.
    var pendingWrites: PendingWrites? { get }
}

/// Data waiting in memory because the store refused its last write.
public struct PendingWrites: Sendable, Codable, Equatable {
    /// Items waiting (a run's points).
    public var items: Int
    /// When the first refused write was tried.
    public var since: Date
    /// The store's latest answer.
    public var problem: String
    /// Items dropped, oldest first, because more waited than memory holds for them.
    public var dropped: Int

    public init(items: Int, since: Date, problem: String, dropped: Int) {
        self.items = items
        self.since = since
        self.problem = problem
        self.dropped = dropped
    }
}

/// The latest `PendingWrites`, shared between a writer and whoever reports it.
public final class PendingWritesBox: Sendable {
    private let value = Mutex<PendingWrites?>(nil)

    public init() {}

    /// What waits, or `nil` while writes succeed.
    public var current: PendingWrites? { value.withLock { $0 } }

    /// Sets what waits (`nil`: everything is written).
    public func set(_ pending: PendingWrites?) { value.withLock { $0 = pending } }
}
