/// How the athlete is moving, from a rolling average of recent speeds.
package enum MovementPattern: String, Sendable, Codable, CaseIterable {
    /// Below 0.5 m/s.
    case stationary
    /// 0.5 to 2 m/s.
    case walking
    /// 2 to 3.5 m/s.
    case jogging
    /// 3.5 m/s and faster.
    case running

    /// Classifies an average speed in m/s.
    package init(averageSpeed speed: Double) {
        switch speed {
        case ..<0.5: self = .stationary
        case ..<2: self = .walking
        case ..<3.5: self = .jogging
        default: self = .running
        }
    }
}

/// The battery level class that tightens sampling.
package enum PowerState: String, Sendable, Codable {
    /// On mains, no battery, or above 30 %.
    case normal
    /// 15 to 30 % and discharging: distance filter +25 %, at most 2 fixes per second.
    case low
    /// Below 15 % and discharging: at most one fix every 2 seconds.
    case critical

    /// Classifies a capacity in percent; a battery that is charging or full counts as normal.
    package init(capacityPercent: Double?, charging: Bool) {
        guard let capacity = capacityPercent, !charging else {
            self = .normal
            return
        }
        switch capacity {
        case ..<15: self = .critical
        case ...30: self = .low
        default: self = .normal
        }
    }
}

/// Which fixes become route points: at least `minDistance` metres and `minInterval` seconds after the previous one.
///
/// The distance is set by the receiver's measured jitter (`Jitter`), not by a fixed figure: route points are spaced
/// `spacingPerSigma` times the noise apart, which keeps the length the noise adds below about 0.3 % while cutting no
/// corners on the clean recordings of watches (there it is a metre or two). The interval depends on how the athlete
/// moves, and the battery tightens both.
package struct SamplingPolicy: Sendable, Equatable, Codable {
    /// Minimum distance between route points, metres.
    package var minDistance: Double
    /// Minimum time between route points (the update interval), seconds.
    package var minInterval: Double

    /// Route points are this many times the position noise apart (noise σ adds about σ²/d to a step of d metres).
    package static let spacingPerSigma = 18.0

    package init(minDistance: Double, minInterval: Double) {
        self.minDistance = minDistance
        self.minInterval = minInterval
    }

    // JSON keys `min_distance_m` and `min_interval_s` with MeridianJSON.
    enum CodingKeys: String, CodingKey {
        case minDistance = "minDistanceM"
        case minInterval = "minIntervalS"
    }

    /// Intervals of 3/2/1/1 s for stationary/walking/jogging/running and a distance of `spacingPerSigma` × `jitter`
    /// metres; low power adds 25 % to the distance and caps the rate at 2 Hz, critical power caps it at 0.5 Hz.
    package init(pattern: MovementPattern, power: PowerState, jitter: Double) {
        // To the decimetre: the noise estimate is no finer, and the live status shows it.
        var distance = (Self.spacingPerSigma * jitter * 10).rounded() / 10
        var interval: Double
        switch pattern {
        case .stationary: interval = 3
        case .walking: interval = 2
        case .jogging, .running: interval = 1
        }
        switch power {
        case .normal: break
        case .low:
            distance *= 1.25
            interval = max(interval, 0.5)
        case .critical:
            interval = max(interval, 2)
        }
        self.init(minDistance: distance, minInterval: interval)
    }
}
