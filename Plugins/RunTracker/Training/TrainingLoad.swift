import Foundation
import MeridianCore

/// What training load needs from the configuration: the heart rates and sex factor of Banister's TRIMP, and the
/// threshold pace of rTSS when it is given rather than estimated.
package struct TrainingSettings: Sendable, Equatable {
    /// Banister's sex-specific weighting: TRIMP weights each minute by a · HRr · e^(b · HRr).
    package enum Sex: String, Sendable, Equatable, CaseIterable {
        case male, female

        /// Banister's published coefficients: 0.64 and 1.92 for men, 0.86 and 1.67 for women.
        var coefficients: (a: Double, b: Double) {
            switch self {
            case .male: return (0.64, 1.92)
            case .female: return (0.86, 1.67)
            }
        }
    }

    package var maxHeartRate: Double = 190
    package var restingHeartRate: Double = 60
    package var sex: Sex = .male
    /// The configured threshold speed (m/s); without it rTSS uses the one estimated from the current VDOT.
    package var thresholdSpeed: Double?

    package init(
        maxHeartRate: Double = 190, restingHeartRate: Double = 60, sex: Sex = .male, thresholdSpeed: Double? = nil
    ) {
        self.maxHeartRate = maxHeartRate
        self.restingHeartRate = restingHeartRate
        self.sex = sex
        self.thresholdSpeed = thresholdSpeed
    }
}

/// How hard one run was: Banister's heart-rate TRIMP, or without heart rate the pace-based rTSS.
package struct TrainingLoad: Sendable, Equatable, Codable {
    package enum Method: String, Sendable, Equatable, Codable {
        /// Banister's training impulse from heart-rate reserve, minute by minute.
        case trimp
        /// Running training stress score: hours × (speed / threshold speed)² × 100.
        case rtss
    }

    package var load: Double
    package var method: Method
    /// The threshold speed rTSS used (m/s); absent for TRIMP.
    @NullWhenAbsent package var thresholdSpeed: Double?

    package init(load: Double, method: Method, thresholdSpeed: Double? = nil) {
        self.load = load
        self.method = method
        self.thresholdSpeed = thresholdSpeed
    }

    enum CodingKeys: String, CodingKey {
        case load, method
        case thresholdSpeed = "thresholdSpeedMps"
    }

    /// Banister's TRIMP over the heart-rate series (the timer's stretches; pauses are not in it): each interval
    /// counts its minutes × HRr × a · e^(b · HRr), HRr = (mean bpm − resting) / (maximum − resting) within 0…1.
    /// `nil` without heart rate.
    static func trimp(_ series: HeartRateSeries, settings: TrainingSettings) -> Double? {
        guard !series.isEmpty, settings.maxHeartRate > settings.restingHeartRate else { return nil }
        let (a, b) = settings.sex.coefficients
        var total = 0.0
        for interval in series.intervals {
            let bpm = (interval.from + interval.to) / 2
            let reserve = min(
                1, max(0, (bpm - settings.restingHeartRate) / (settings.maxHeartRate - settings.restingHeartRate)))
            total += (interval.end - interval.start) / 60 * reserve * a * exp(b * reserve)
        }
        return total
    }

    /// rTSS of `distance` metres in `movingTime` seconds at `thresholdSpeed` m/s: the average moving speed stands
    /// for the normalised graded pace (no grade adjustment).
    static func rtss(distance: Double, movingTime: Double, thresholdSpeed: Double) -> Double? {
        guard movingTime > 0, distance > 0, thresholdSpeed > 0 else { return nil }
        let intensity = distance / movingTime / thresholdSpeed
        return movingTime / 3600 * intensity * intensity * 100
    }

    /// The load of a run: TRIMP when it has heart rate, else rTSS for runs when a threshold speed is known.
    static func of(_ run: RunSummary, points: [TrackPoint], settings: TrainingSettings, estimatedThreshold: Double?)
        -> TrainingLoad?
    {
        if let trimp = trimp(HeartRateSeries(points: points, start: run.startedAt), settings: settings) {
            return TrainingLoad(load: trimp, method: .trimp)
        }
        guard run.activity == .run, let threshold = settings.thresholdSpeed ?? estimatedThreshold,
            let rtss = rtss(distance: run.distance, movingTime: run.movingTime, thresholdSpeed: threshold)
        else { return nil }
        return TrainingLoad(load: rtss, method: .rtss, thresholdSpeed: threshold)
    }
}
