import Foundation
import MeridianCore

/// How trustworthy a run's GPS data is: accuracy distribution, rejected points and why, the recording's own
/// interval and its signal losses.
package struct DataQuality: Sendable, Equatable, Codable {
    /// Points per signal level (good < 10 m, fair 10–20 m, poor 20–50 m, unusable > 50 m, unknown accuracy).
    package var accuracyLevels: [String: Int]
    /// Median, 95th percentile and worst horizontal accuracy of the points that had one, metres.
    @NullWhenAbsent package var accuracyP50: Double?
    @NullWhenAbsent package var accuracyP95: Double?
    @NullWhenAbsent package var accuracyMax: Double?
    /// Points received, and rejected per reason (every reason listed, 0 when none).
    package var received: Int
    package var rejected: Int
    package var rejectedBy: [String: Int]
    /// The recording's usual interval between usable fixes (the median), seconds; `nil` without two of them.
    @NullWhenAbsent package var recordingInterval: Double?
    /// Signal losses while the timer ran: silences much longer than the recording's own interval (`Cadence`),
    /// which the tracker bridged when their speed was plausible.
    package var gaps: [Gap]
    /// How many, their total and the longest, seconds.
    package var gapCount: Int
    package var gapTime: Double
    package var longestGap: Double

    /// A signal loss.
    package struct Gap: Sendable, Equatable, Codable {
        /// Seconds from the run's start to the last fix before the gap.
        package var startOffset: Double
        package var duration: Double
        /// Sequence number of the first fix after the gap.
        package var resumedAt: Int

        enum CodingKeys: String, CodingKey {
            case startOffset = "startOffsetS"
            case duration = "durationS"
            case resumedAt = "resumedAtSeq"
        }
    }

    enum CodingKeys: String, CodingKey {
        case accuracyLevels
        // Snake case spelled out: the encoder's conversion would give `accuracy_p50m`.
        case accuracyP50 = "accuracy_p50_m"
        case accuracyP95 = "accuracy_p95_m"
        case accuracyMax = "accuracyMaxM"
        case received, rejected, rejectedBy
        case recordingInterval = "recordingIntervalS"
        case gaps, gapCount
        case gapTime = "gapS"
        case longestGap = "longestGapS"
    }

    /// Rejections that still leave a fix usable for timing: it had a position the tracker could trust.
    static let usableRejections: Set<PointRejection> = [.stationaryDrift, .belowSamplingDistance, .paused]

    package init(points: [TrackPoint], start: Date) {
        var levels = ["good": 0, "fair": 0, "poor": 0, "unusable": 0, "unknown": 0]
        var accuracies: [Double] = []
        var reasons = Dictionary(uniqueKeysWithValues: PointRejection.allCases.map { ($0.rawValue, 0) })
        var gaps: [Gap] = []
        var cadence = Cadence()
        var intervals: [Double] = []
        var previous: TrackPoint?
        for point in points {
            if let level = SignalQuality(horizontalAccuracy: point.horizontalAccuracy) {
                levels[level.rawValue, default: 0] += 1
                accuracies.append(point.horizontalAccuracy ?? 0)
            } else {
                levels["unknown", default: 0] += 1
            }
            if let rejection = point.rejection { reasons[rejection.rawValue, default: 0] += 1 }
            // The tracker judges the intervals between usable fixes within a segment, as here.
            guard point.coordinate != nil, point.rejection.map(Self.usableRejections.contains) ?? true else { continue }
            if let previous, previous.segment == point.segment {
                let interval = point.time.timeIntervalSince(previous.time)
                if cadence.isSignalLoss(interval), point.rejection != .paused {
                    gaps.append(
                        Gap(
                            startOffset: previous.time.timeIntervalSince(start), duration: interval,
                            resumedAt: point.sequence))
                }
                cadence.add(interval)
                intervals.append(interval)
            }
            previous = point
        }
        accuracies.sort()
        func percentile(_ p: Double) -> Double? {
            guard !accuracies.isEmpty else { return nil }
            return accuracies[min(accuracies.count - 1, Int((p * Double(accuracies.count - 1)).rounded()))]
        }
        accuracyLevels = levels
        accuracyP50 = percentile(0.5)
        accuracyP95 = percentile(0.95)
        accuracyMax = accuracies.last
        received = points.count
        rejected = points.count { !$0.isAccepted }
        rejectedBy = reasons
        intervals.sort()
        recordingInterval = intervals.isEmpty ? nil : intervals[intervals.count / 2]
        self.gaps = gaps
        gapCount = gaps.count
        gapTime = gaps.reduce(0) { $0 + $1.duration }
        longestGap = gaps.map(\.duration).max() ?? 0
    }
}
