import Foundation
import MeridianCore

/// Merges the sentences of one receiver cycle into one `Fix`.
///
/// A sentence with a different time of day starts a new epoch and completes the
/// previous one. GGA, RMC, GLL, GNS, GSA, GST, VTG, ZDA and PGRME are merged:
/// position from any of them, altitude and quality from GGA/GNS, speed and course
/// from RMC (else VTG), the mode 3D when an altitude was reported (unless GSA says 2D with under 4 satellites), else from GSA
/// (else the previous epoch's, when a cycle lost its GGA), accuracy from PGRME (else GST). The date comes from RMC/ZDA; an
/// epoch with a time of day only uses the last date seen (advanced at midnight),
/// or `assumedDate` before any date arrives.
public struct EpochAssembler: Sendable {
    /// The id put in every fix.
    public let providerID: String
    /// The UTC day to use for time-of-day-only sentences before the receiver has sent a date
    /// (e.g. today's date for a live GGA-only receiver); without it such epochs are counted as undated.
    public var assumedDate: Date?

    private var epoch = Epoch()
    private var lastDate: Int?
    private var lastTimeOfDay: Int?
    private var lastMode = FixMode.noFix
    private(set) var undatedEpochs = 0
    private(set) var fixesEmitted = 0
    /// The fix of the epoch that the last sentence completed, until `takeCompletedFix` takes it.
    private var completedFix: Fix?

    private static let millisecondsPerDay = 86_400_000

    public init(providerID: String) {
        self.providerID = providerID
    }

    /// Adds a sentence; returns the fix of the previous epoch when this sentence starts a new one.
    public mutating func add(_ sentence: NMEASentence) -> Fix? {
        _ = sentence.deliver(to: &self)
        return takeCompletedFix()
    }

    /// The fix of the epoch that the last sentence completed, once.
    mutating func takeCompletedFix() -> Fix? {
        completedFix.take()
    }

    /// Completes the current epoch (end of input).
    public mutating func finish() -> Fix? {
        flush()
    }

    private mutating func flush() -> Fix? {
        defer { epoch = Epoch() }
        guard let timeOfDay = epoch.timeOfDay else { return nil }
        let day: Int
        if let date = epoch.date {
            day = date
        } else if let lastDate, let lastTimeOfDay {
            // Past midnight when the clock jumps back by more than half a day.
            day = timeOfDay + Self.millisecondsPerDay / 2 < lastTimeOfDay ? lastDate + 1 : lastDate
        } else if let assumedDate {
            day = Int((assumedDate.timeIntervalSince1970 / 86_400).rounded(.down))
        } else {
            undatedEpochs += 1
            return nil
        }
        lastDate = day
        lastTimeOfDay = timeOfDay
        let time = Date(timeIntervalSince1970: Double(day) * 86_400 + Double(timeOfDay) / 1000)
        fixesEmitted += 1
        let fix = epoch.fix(time: time, providerID: providerID, previousMode: lastMode)
        lastMode = fix.mode
        return fix
    }
}

extension EpochAssembler: SentenceSink {
    /// Merges one sentence into the current epoch; a sentence with another time of day first completes
    /// the previous epoch into `completedFix`. Returns whether it did (checking this `Bool` is cheaper
    /// than comparing an optional `Fix` with `nil`, which copies it).
    mutating func receive<Sentence: DecodedSentence>(_ sentence: Sentence) -> Bool {
        var completed = false
        if let time = sentence.timeOfDay {
            if let current = epoch.timeOfDay, current != time {
                completedFix = flush()
                completed = true
            }
            epoch.timeOfDay = time
        }
        sentence.merge(into: &epoch)
        return completed
    }
}
