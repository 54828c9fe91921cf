import Foundation
import MeridianCore

/// How trustworthy a run's GPS data is: accuracy distribution, rejected points and why, and gaps.
public struct DataQuality: Sendable, Equatable, Codable {
    /// Points per signal level (good < 10 m, fair 10–20 m, poor 20–50 m, unusable > 50 m, unknown accuracy).
    public var accuracyLevels: [String: Int]
    /// Median, 95th percentile and worst horizontal accuracy of the points that had one, metres.
    @NullWhenAbsent public var accuracyP50: Double?
    @NullWhenAbsent public var accuracyP95: Double?
    @NullWhenAbsent public var accuracyMax: Double?
    /// Points received, and rejected per reason (every reason listed, 0 when none).
    public var received: Int
    public var rejected: Int
    public var rejectedBy: [String: Int]
    /// Silences between consecutive fixes longer than `gapThreshold`.
    public var gaps: [Gap]
    /// Total seconds of those gaps.
    public var gapTime: Double

    /// A silence longer than this (seconds) counts as a gap.
    public static let gapThreshold = 10.0

    /// A silence in the data.
    public struct Gap: Sendable, Equatable, Codable {
        /// Seconds from the run's start to the last fix before the gap.
        public var startOffset: Double
        public var duration: Double
        /// Sequence number of the first fix after the gap.
        public var resumedAt: Int

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
        case gaps
        case gapTime = "gapS"
    }

    public init(points: [TrackPoint], start: Date) {
        var levels = ["good": 0, "fair": 0, "poor": 0, "unusable": 0, "unknown": 0]
        var accuracies: [Double] = []
        var reasons = Dictionary(uniqueKeysWithValues: PointRejection.allCases.map { ($0.rawValue, 0) })
        var gaps: [Gap] = []
        var previousTime: Date?
        for point in points {
            if let level = SignalQuality(horizontalAccuracy: point.horizontalAccuracy) {
                levels[level.rawValue, default: 0] += 1
                accuracies.append(point.horizontalAccuracy ?? 0)
            } else {
                levels["unknown", default: 0] += 1
            }
            if let rejection = point.rejection { reasons[rejection.rawValue, default: 0] += 1 }
            if let previousTime {
                let silence = point.time.timeIntervalSince(previousTime)
                if silence > Self.gapThreshold {
                    gaps.append(Gap(startOffset: previousTime.timeIntervalSince(start), duration: silence,
                                    resumedAt: point.sequence))
                }
            }
            previousTime = max(previousTime ?? point.time, point.time)
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
        self.gaps = gaps
        gapTime = gaps.reduce(0) { $0 + $1.duration }
    }
}
