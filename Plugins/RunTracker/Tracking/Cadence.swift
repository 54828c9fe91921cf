/// The recording's own rhythm: the median of the recent intervals between usable fixes.
///
/// Receivers and apps log at very different rates (1 Hz, smart recording every 1–25 s, loggers every 5–11 s).
/// An interval is a **signal loss** when it is much longer than the recording's usual interval, not when it passes
/// a fixed number of seconds: 8 s is a loss for a 1 Hz watch and ordinary for an 8 s logger. Both are bridged by
/// the tracker; losses are reported in the data quality. Live tracking, import and the analysis of stored points
/// all judge intervals with this one type.
package struct Cadence: Sendable, Equatable, Codable {
    /// The most recent intervals, seconds.
    private var intervals = SlidingMedian(window: Cadence.window)

    /// Intervals kept for the median.
    static let window = 15
    /// An interval is a signal loss when longer than this many times the median…
    static let lossFactor = 3.0
    /// …and longer than the median by at least this many seconds.
    static let lossMargin = 5.0

    package init() {}

    /// The median of the recent intervals, seconds; `nil` before the first interval.
    package var median: Double? { intervals.median }

    /// Whether `interval` is a signal loss for this recording (judged before the interval is added).
    /// The first interval of a recording cannot be judged and is never a loss.
    package func isSignalLoss(_ interval: Double) -> Bool {
        guard let median else { return false }
        return interval > max(Self.lossFactor * median, median + Self.lossMargin)
    }

    /// Adds an interval between two usable fixes.
    package mutating func add(_ interval: Double) {
        guard interval.isFinite, interval > 0 else { return }
        intervals.add(interval)
    }

    enum CodingKeys: String, CodingKey { case recent }

    package init(from decoder: any Decoder) throws {
        let recent = try decoder.container(keyedBy: CodingKeys.self).decode([Double].self, forKey: .recent)
        intervals = SlidingMedian(window: Self.window, values: recent)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intervals.recent, forKey: .recent)
    }
}

extension Cadence: AddedStatePart {}
