import Foundation
import MeridianCore

/// How much a receiver's positions jitter, estimated from the recording itself.
///
/// Summing every step of a noisy track overcounts: each step gains about σ²/step in length from position noise σ.
/// Watches and bike computers filter their positions (measured on the shared device files: σ ≈ 0.06–0.26 m), raw
/// receivers and phones may not. The estimate lets the tracker space route points just far enough apart for the
/// noise to be negligible, and no further, so curves are not cut on clean recordings.
///
/// Method: for three fixes in a row at most `maximumInterval` apart, the middle one's sideways offset from the line
/// through its neighbours is curvature plus noise; the change of that offset from one triple to the next removes the
/// (slowly changing) curvature. For white noise of σ per axis that change has a standard deviation of √5·σ, so
/// σ ≈ median|change| / (0.6745·√5); 0 until enough closely spaced fixes were seen.
package struct Jitter: Sendable, Equatable, Codable {
    private var lastTwo: [TimedPosition] = []
    private var lastOffset: Double?
    private var changes = SlidingMedian(window: Jitter.window)
    /// The estimate, updated with each change (the sampling policy reads it for every fix).
    package private(set) var sigma = 0.0

    /// Fixes further apart than this (seconds) are not used: the path between them is not straight enough.
    static let maximumInterval = 1.5
    /// Offset changes kept for the median.
    static let window = 31
    /// Changes needed before the estimate is trusted.
    static let minimumSamples = 5

    package init() {}

    /// Adds the next usable fix.
    mutating func add(_ position: TimedPosition) {
        defer {
            lastTwo.append(position)
            if lastTwo.count > 2 { lastTwo.removeFirst() }
        }
        guard lastTwo.count == 2, let offset = Self.sidewaysOffset(lastTwo[0], lastTwo[1], position) else {
            lastOffset = nil
            return
        }
        if let lastOffset {
            changes.add(abs(offset - lastOffset))
            if changes.count >= Self.minimumSamples, let middle = changes.upperMiddle {
                sigma = middle / (0.6745 * 5.0.squareRoot())
            }
        }
        lastOffset = offset
    }

    /// The signed distance of `middle` from the line `before`→`after` in metres, or `nil` when the fixes are too
    /// far apart in time or the line is too short to give it a direction.
    private static func sidewaysOffset(_ before: TimedPosition, _ middle: TimedPosition, _ after: TimedPosition)
        -> Double?
    {
        guard middle.time - before.time <= maximumInterval, after.time - middle.time <= maximumInterval,
            let centre = middle.coordinate, let first = before.coordinate, let last = after.coordinate
        else { return nil }
        let plane = LocalPlane(origin: centre)
        let a = plane.project(first)
        let c = plane.project(last)
        let dx = c.x - a.x
        let dy = c.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length >= 1 else { return nil }
        // Cross product of (middle − a) with the unit direction a→c; the middle is the plane's origin.
        return (-a.x * dy + a.y * dx) / length
    }

    enum CodingKeys: String, CodingKey { case lastTwo, lastOffset, changes, sigma }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lastTwo = try container.decode([TimedPosition].self, forKey: .lastTwo)
        lastOffset = try container.decodeIfPresent(Double.self, forKey: .lastOffset)
        changes = SlidingMedian(window: Self.window, values: try container.decode([Double].self, forKey: .changes))
        sigma = try container.decode(Double.self, forKey: .sigma)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lastTwo, forKey: .lastTwo)
        try container.encodeIfPresent(lastOffset, forKey: .lastOffset)
        try container.encode(changes.recent, forKey: .changes)
        try container.encode(sigma, forKey: .sigma)
    }
}

extension Jitter: AddedStatePart {}
