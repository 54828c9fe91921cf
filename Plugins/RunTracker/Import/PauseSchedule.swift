import Foundation

/// Applies a recording's pauses to the engine as its samples are fed: explicit pauses (the device's timer stops,
/// file structure boundaries) and silences longer than the pause gap. A pause starts no earlier than the last
/// sample fed and ends no later than the next one, so every sample falls on the right side of it.
struct PauseSchedule {
    private var pending: [DateInterval]
    private let silence: Double
    private var open: DateInterval?
    private var lastSample: Date?

    init(_ pauses: [DateInterval], silence: Double) {
        pending = pauses.sorted { $0.start < $1.start }
        self.silence = silence
    }

    /// Pauses and resumes `engine` as needed before the sample at `time` is fed.
    mutating func apply(before time: Date, to engine: inout RunEngine) {
        defer { lastSample = time }
        var paused = false
        if let open, time >= open.end {
            try? engine.resume(at: open.end)
            self.open = nil
            paused = true
        }
        // A pause that starts at a sample's time starts after it (a device writes a record, then stops its timer);
        // a zero-length one (a file boundary between two samples of the same second) goes before it.
        while let next = pending.first, next.start < time || (next.duration == 0 && next.start == time) {
            pending.removeFirst()
            guard open == nil, next.end > (lastSample ?? .distantPast) || next.duration == 0 else { continue }
            // The engine is active until the import stops it, so pausing and resuming cannot fail.
            try? engine.pause(at: max(next.start, lastSample ?? next.start))
            paused = true
            if time >= next.end {
                try? engine.resume(at: next.end)
            } else {
                open = next
            }
        }
        if !paused, open == nil, let lastSample, time.timeIntervalSince(lastSample) > silence {
            try? engine.pause(at: lastSample)
            try? engine.resume(at: time)
        }
    }
}
