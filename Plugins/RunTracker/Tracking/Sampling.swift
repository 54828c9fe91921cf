/// How the athlete is moving, from a rolling average of recent speeds.
public enum MovementPattern: String, Sendable, Codable, CaseIterable {
    /// Below 0.5 m/s.
    case stationary
    /// 0.5 to 2 m/s.
    case walking
    /// 2 to 3.5 m/s.
    case jogging
    /// 3.5 m/s and faster.
    case running

    /// Classifies an average speed in m/s.
    public init(averageSpeed speed: Double) {
        switch speed {
        case ..<0.5: self = .stationary
        case ..<2: self = .walking
        case ..<3.5: self = .jogging
        default: self = .running
        }
    }
}

/// The battery level class that tightens sampling.
public enum PowerState: String, Sendable, Codable {
    /// On mains, no battery, or above 30 %.
    case normal
    /// 15 to 30 % and discharging: distance filter +25 %, at most 2 fixes per second.
    case low
    /// Below 15 % and discharging: at most one fix every 2 seconds.
    case critical

    /// Classifies a capacity in percent; a battery that is charging or full counts as normal.
    public init(capacityPercent: Double?, charging: Bool) {
        guard let capacity = capacityPercent, !charging else { self = .normal; return }
        switch capacity {
        case ..<15: self = .critical
        case ...30: self = .low
        default: self = .normal
        }
    }
}

/// Which fixes become stored route points: at least `minDistance` metres and
/// `minInterval` seconds after the previous one.
public struct SamplingPolicy: Sendable, Equatable, Codable {
    /// Minimum distance between route points, metres.
    public var minDistance: Double
    /// Minimum time between route points (the update interval), seconds.
    public var minInterval: Double

    public init(minDistance: Double, minInterval: Double) {
        self.minDistance = minDistance
        self.minInterval = minInterval
    }

    // JSON keys `min_distance_m` and `min_interval_s` with MeridianJSON.
    enum CodingKeys: String, CodingKey {
        case minDistance = "minDistanceM"
        case minInterval = "minIntervalS"
    }

    /// 10/7/5/5 m and 3/2/1/1 s for stationary/walking/jogging/running; low power adds 25 % to the
    /// distance and caps the rate at 2 Hz, critical power caps it at 0.5 Hz.
    public init(pattern: MovementPattern, power: PowerState) {
        var distance: Double
        var interval: Double
        switch pattern {
        case .stationary: (distance, interval) = (10, 3)
        case .walking: (distance, interval) = (7, 2)
        case .jogging: (distance, interval) = (5, 1)
        case .running: (distance, interval) = (5, 1)
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
