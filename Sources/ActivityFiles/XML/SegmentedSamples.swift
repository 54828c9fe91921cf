import Foundation

/// Samples of a track made of segments (GPX `trkseg`, TCX `Track`), with a pause at each
/// boundary between segments that hold samples: from the last sample of one to the first of
/// the next (zero long when the next starts at or before the end of the last).
struct SegmentedSamples {
    private(set) var samples = RecordedSamples()
    private(set) var pauses: [DateInterval] = []
    private var segmentHasSamples = false
    private var boundaryAfter: Date?

    /// A new segment begins.
    mutating func beginSegment() {
        guard segmentHasSamples else { return }
        boundaryAfter = samples.last?.time
        segmentHasSamples = false
    }

    mutating func append(_ sample: RecordedSample) {
        if let last = boundaryAfter {
            pauses.append(DateInterval(start: last, duration: max(0, sample.time.timeIntervalSince(last))))
            boundaryAfter = nil
        }
        samples.append(sample)
        segmentHasSamples = true
    }

    /// The samples and pauses, moved out (this is empty afterwards).
    mutating func take() -> (samples: RecordedSamples, pauses: [DateInterval]) {
        defer { self = SegmentedSamples() }
        return (samples, pauses)
    }
}
