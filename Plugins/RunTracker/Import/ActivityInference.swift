import ActivityFiles
import Foundation
import MeridianCore

/// The activity a recording's own speeds point to, for files that name no sport (GPX without `type`, NMEA and gpsd
/// logs, FIT `generic`): the median speed of its moving time, and how much of that time is faster than people run or
/// ride. Checked on the shared files: their rides have medians of 5.8–8.7 m/s (the GPSies tour a steady 5.8 m/s, the
/// others 60–100 % of the moving time above 6 m/s), their runs medians of 2.2–3.3 m/s and at most 1 % above 6 m/s; the
/// car trip spends 15 % of its moving time above 15 m/s, the rides at most 1 %.
package struct ActivityInference: Sendable, Equatable, Encodable {
    /// The activity inferred.
    package var activity: Activity
    /// The median speed of the moving time, m/s; `nil` when the recording never moves.
    package var medianMovingSpeed: Double?
    /// The share of the moving time faster than `runningSpeedLimit`, 0...1.
    package var shareAboveRunningSpeed: Double
    /// The share of the moving time faster than `ridingSpeedLimit`, 0...1.
    package var shareAboveRidingSpeed: Double

    /// Speeds are measured over stretches at least this long, so that receiver noise averages out, seconds…
    static let minimumStretch = 10.0
    /// …and at most this long (a longer silence says nothing about the speed), seconds.
    static let maximumStretch = 120.0
    /// A stretch at least this fast is moving, m/s.
    static let movingSpeed = 0.5
    /// A median moving speed below this is a walk (brisk walking is 1.6–1.8 m/s, slow running from 2.1), m/s.
    static let walkingSpeedLimit = 1.9
    /// A median moving speed from this on is a ride (3:42 per km, beyond what runners hold outside races), m/s.
    static let ridingMedian = 4.5
    /// Runners do not go faster than this beyond a sprint (the marathon world record averages 5.8 m/s), m/s…
    package static let runningSpeedLimit = 6.0
    /// …so this share of the moving time above it is a ride.
    static let ridingShare = 0.25
    /// Riders do not go faster than this beyond a descent (54 km/h), m/s…
    package static let ridingSpeedLimit = 15.0
    /// …so this share of the moving time above it is a motor vehicle: other.
    static let motorShare = 0.1

    /// Infers the activity of `samples` (in time order) from their positions, else from the file's distance field.
    package init(_ samples: RecordedSamples) {
        let positions = samples.compactMap { sample in sample.coordinate.map { (time: sample.time, position: $0) } }
        let stretches =
            positions.count >= 2
            ? Self.stretches(positions) { Geodesic.wgs84.distance($0, $1) }
            : Self.stretches(samples.compactMap { sample in sample.distance.map { (time: sample.time, position: $0) } })
            { max(0, $1 - $0) }
        let moving = stretches.filter { $0.speed >= Self.movingSpeed }.sorted { $0.speed < $1.speed }
        let movingTime = moving.reduce(0) { $0 + $1.duration }
        func share(above limit: Double) -> Double {
            movingTime > 0 ? moving.filter { $0.speed > limit }.reduce(0) { $0 + $1.duration } / movingTime : 0
        }
        var elapsed = 0.0
        medianMovingSpeed =
            moving.first { stretch in
                elapsed += stretch.duration
                return elapsed >= movingTime / 2
            }?.speed
        shareAboveRunningSpeed = share(above: Self.runningSpeedLimit)
        shareAboveRidingSpeed = share(above: Self.ridingSpeedLimit)
        activity = Self.activity(
            median: medianMovingSpeed, shareAboveRunning: shareAboveRunningSpeed,
            shareAboveRiding: shareAboveRidingSpeed)
    }

    private static func activity(median: Double?, shareAboveRunning: Double, shareAboveRiding: Double) -> Activity {
        guard let median else { return .other }
        if shareAboveRiding >= motorShare { return .other }
        if median >= ridingMedian || shareAboveRunning >= ridingShare { return .ride }
        return median < walkingSpeedLimit ? .walk : .run
    }

    /// The speed (m/s) and duration (s) of each stretch between samples at least `minimumStretch` apart.
    private static func stretches<Position>(
        _ track: [(time: Date, position: Position)],
        distance: (Position, Position) -> Double
    ) -> [(speed: Double, duration: Double)] {
        guard var anchor = track.first else { return [] }
        var result: [(speed: Double, duration: Double)] = []
        for sample in track.dropFirst() {
            let duration = sample.time.timeIntervalSince(anchor.time)
            guard duration >= minimumStretch else { continue }
            if duration <= maximumStretch {
                result.append((distance(anchor.position, sample.position) / duration, duration))
            }
            anchor = sample
        }
        return result
    }

    /// What the import summary says, e.g. "ride, from its speeds: median 7.7 m/s while moving, 89 % of that time
    /// above 6 m/s"; speeds in `units`.
    package func text(units: UnitSystem) -> String {
        guard let medianMovingSpeed else { return "\(activity.rawValue), from its speeds: it never moves" }
        func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
        var text =
            "\(activity.rawValue), from its speeds: median \(TimeFormat.speed(metresPerSecond: medianMovingSpeed, units: units)) while moving"
        if shareAboveRidingSpeed > 0 {
            text +=
                ", \(percent(shareAboveRidingSpeed)) of that time above \(TimeFormat.speed(metresPerSecond: Self.ridingSpeedLimit, units: units))"
        } else if shareAboveRunningSpeed > 0 {
            text +=
                ", \(percent(shareAboveRunningSpeed)) of that time above \(TimeFormat.speed(metresPerSecond: Self.runningSpeedLimit, units: units))"
        }
        return text
    }

    enum CodingKeys: String, CodingKey {
        case activity
        case medianMovingSpeed = "medianMovingSpeedMps"
        case shareAboveRunningSpeed, shareAboveRidingSpeed
    }

    /// JSON: `activity`, `median_moving_speed_mps` (null when it never moves), `share_above_running_speed`,
    /// `share_above_riding_speed`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activity, forKey: .activity)
        try container.encode(medianMovingSpeed, forKey: .medianMovingSpeed)
        try container.encode(shareAboveRunningSpeed, forKey: .shareAboveRunningSpeed)
        try container.encode(shareAboveRidingSpeed, forKey: .shareAboveRidingSpeed)
    }
}
