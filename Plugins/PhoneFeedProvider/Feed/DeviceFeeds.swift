import Foundation
import MeridianCore
import Synchronization

/// What one device has sent since the service started, for `GET /v1/devices`.
package struct DeviceFeedState: Sendable, Equatable, Encodable {
    /// Time of the newest accepted point (the phone's clock).
    package var lastFix: Date?
    /// When that point arrived.
    package var lastArrival: Date?
    /// 0...1, as last reported.
    package var battery: Double?
    package var received = 0
    package var accepted = 0
    package var duplicate = 0
    package var late = 0
    package var rejected = 0
    package var lastRejection: String?
}

/// Per-device ordering, duplicate and late detection, checks and rate limits of the feeds. Points of one request
/// are taken in time order; a point with the time of one already received is a duplicate; one older than the newest
/// is late (counted, never the latest position, handed on apart for consumers that keep a history); one from more
/// than 2 minutes in the future or failing the checks is rejected with its reason. The rest go to the host.
final class DeviceFeeds: Sendable {
    /// How far ahead of the server's clock a point may be.
    static let futureTolerance: TimeInterval = 120
    /// Received point times remembered per device for duplicate detection (older ones are forgotten first).
    static let rememberedTimes = 100_000

    private struct Entry {
        var state = DeviceFeedState()
        var seen: Set<Int64> = []
        var tokens: Double
        var refilled: Date
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let pointsPerSecond: Double
    private let burst: Double

    /// `pointsPerSecond` sustained per device, with bursts (an offline queue) of up to `burst` points.
    init(pointsPerSecond: Double, burst: Double) {
        self.pointsPerSecond = pointsPerSecond
        self.burst = burst
    }

    /// The points of one request that go through, in time order: those newer than any before (`current`) and those
    /// older than the device's newest (`late`).
    struct Accepted {
        var current: [PhonePoint] = []
        var late: [PhonePoint] = []
    }

    /// Takes the decoded points of one request from `device` and returns the points that go through.
    func accept(_ decoded: [DecodedPoint], from device: String, now: Date = Date()) -> Accepted {
        entries.withLock { entries in
            var entry = entries[device] ?? Entry(tokens: burst, refilled: now)
            entry.tokens = min(burst, entry.tokens + now.timeIntervalSince(entry.refilled) * pointsPerSecond)
            entry.refilled = now
            entry.state.received += decoded.count
            var points: [PhonePoint] = []
            for item in decoded {
                switch item {
                case .point(let point): points.append(point)
                case .rejected(let reason): Self.reject(&entry.state, reason)
                }
            }
            var passed = Accepted()
            for point in points.sorted(by: { $0.time < $1.time }) {
                if let problem = point.problem {
                    Self.reject(&entry.state, problem)
                } else if point.time.timeIntervalSince(now) > Self.futureTolerance {
                    Self.reject(
                        &entry.state,
                        "point from the future (\(Int(point.time.timeIntervalSince(now))) s ahead of the server's clock)"
                    )
                } else if entry.tokens < 1 {
                    Self.reject(&entry.state, "more than \(Int(pointsPerSecond)) points per second")
                } else {
                    entry.tokens -= 1
                    let key = Int64((point.time.timeIntervalSince1970 * 1000).rounded())
                    if !entry.seen.insert(key).inserted {
                        entry.state.duplicate += 1
                    } else if let last = entry.state.lastFix, point.time <= last {
                        entry.state.late += 1
                        passed.late.append(point)
                    } else {
                        entry.state.accepted += 1
                        entry.state.lastFix = point.time
                        entry.state.lastArrival = now
                        if let battery = point.battery { entry.state.battery = battery }
                        passed.current.append(point)
                    }
                }
            }
            if entry.seen.count > Self.rememberedTimes {
                let keep = entry.seen.sorted().suffix(Self.rememberedTimes / 2)
                entry.seen = Set(keep)
            }
            entries[device] = entry
            return passed
        }
    }

    /// The state of `device` (empty when it has sent nothing since the start).
    func state(of device: String) -> DeviceFeedState {
        entries.withLock { $0[device]?.state ?? DeviceFeedState() }
    }

    /// Totals over every device, for the provider's counters.
    func totals() -> [String: Int] {
        entries.withLock { entries in
            entries.values.reduce(into: ["received": 0, "accepted": 0, "duplicate": 0, "late": 0, "rejected": 0]) {
                totals, entry in
                totals["received", default: 0] += entry.state.received
                totals["accepted", default: 0] += entry.state.accepted
                totals["duplicate", default: 0] += entry.state.duplicate
                totals["late", default: 0] += entry.state.late
                totals["rejected", default: 0] += entry.state.rejected
            }
        }
    }

    private static func reject(_ state: inout DeviceFeedState, _ reason: String) {
        state.rejected += 1
        state.lastRejection = reason
    }
}
