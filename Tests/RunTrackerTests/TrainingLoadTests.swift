import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// Banister's TRIMP, rTSS and the fitness/fatigue/form series on synthetic data with values computed by hand.
@Suite("Training load and fitness")
struct TrainingLoadTests {
    /// Heart-rate readings every 10 s from `start`, each `(seconds, bpm)` held until the next change.
    static func points(_ heartRates: [(seconds: Int, bpm: Double)], start: Date = Fixtures.day0, pausedFrom: Int? = nil)
        -> [TrackPoint]
    {
        var points: [TrackPoint] = []
        var elapsed = 0
        for (seconds, bpm) in heartRates {
            for _ in 0..<(seconds / 10) {
                points.append(
                    TrackPoint(
                        sequence: points.count, time: start.addingTimeInterval(Double(elapsed)),
                        coordinate: Fixtures.origin,
                        rejection: pausedFrom.map { elapsed >= $0 } == true ? .paused : nil,
                        sensors: SensorReading(heartRate: bpm)))
                elapsed += 10
            }
        }
        // The last reading closes the last interval.
        points.append(
            TrackPoint(
                sequence: points.count, time: start.addingTimeInterval(Double(elapsed)), coordinate: Fixtures.origin,
                sensors: SensorReading(heartRate: heartRates.last?.bpm)))
        return points
    }

    @Test("TRIMP of 30 minutes at 150 bpm (rest 60, max 190): 50.22 with the male, 56.76 with the female factors")
    func constantHeartRate() throws {
        let series = HeartRateSeries(points: Self.points([(1800, 150)]), start: Fixtures.day0)
        // HRr = (150 − 60) / (190 − 60) = 0.692308.
        // Male:   30 min × 0.692308 × 0.64 × e^(1.92 × 0.692308) = 30 × 0.692308 × 0.64 × 3.778 = 50.220
        // Female: 30 min × 0.692308 × 0.86 × e^(1.67 × 0.692308) = 30 × 0.692308 × 0.86 × 3.1776 = 56.758
        let male = try #require(
            TrainingLoad.trimp(series, settings: TrainingSettings(maxHeartRate: 190, restingHeartRate: 60)))
        let female = try #require(
            TrainingLoad.trimp(
                series, settings: TrainingSettings(maxHeartRate: 190, restingHeartRate: 60, sex: .female)))
        #expect(abs(male - 50.220) < 0.01)
        #expect(abs(female - 56.758) < 0.01)
    }

    @Test("TRIMP sums its intervals and leaves paused time out")
    func halvesAndPauses() throws {
        let settings = TrainingSettings(maxHeartRate: 190, restingHeartRate: 60)
        // Readings every 10 s: 89 intervals at 120 bpm, one from 120 to 180 bpm (counted at 150), 90 at 180 bpm.
        // 15 min at 120 bpm: HRr 0.461538 → 15 × 0.461538 × 0.64 × e^0.886154 = 10.748, so 89 intervals 10.629
        // 15 min at 180 bpm: HRr 0.923077 → 15 × 0.923077 × 0.64 × e^1.772308 = 52.145
        // 10 s at 150 bpm: 1/6 min × 0.692308 × 0.64 × 3.778 = 0.279.
        let both = try #require(
            TrainingLoad.trimp(
                HeartRateSeries(points: Self.points([(900, 120), (900, 180)]), start: Fixtures.day0),
                settings: settings))
        #expect(abs(both - (10.629 + 52.145 + 0.279)) < 0.02)
        // The same run paused after 15 minutes: only the 89 intervals at 120 bpm count.
        let paused = try #require(
            TrainingLoad.trimp(
                HeartRateSeries(points: Self.points([(900, 120), (900, 180)], pausedFrom: 900), start: Fixtures.day0),
                settings: settings))
        #expect(abs(paused - 10.629) < 0.02)
        #expect(TrainingLoad.trimp(HeartRateSeries(points: [], start: Fixtures.day0), settings: settings) == nil)
    }

    @Test("rTSS: 10 km in 50 minutes at a 4:10 /km threshold is 57.87")
    func rtss() throws {
        // IF = (10000 / 3000 s) / 4 m/s = 0.83333; rTSS = 3000 / 3600 h × 0.83333² × 100 = 57.870.
        let value = try #require(TrainingLoad.rtss(distance: 10_000, movingTime: 3000, thresholdSpeed: 1000 / 250.0))
        #expect(abs(value - 57.870) < 0.001)
        #expect(TrainingLoad.rtss(distance: 10_000, movingTime: 0, thresholdSpeed: 4) == nil)
    }

    @Test("CTL and ATL: exponentially weighted over 42 and 7 days, rest days included; TSB = CTL − ATL")
    func fitness() {
        let days = Fitness.days([("2024-05-01", 100), ("2024-05-02", 0), ("2024-05-03", 0), ("2024-05-04", 50)])
        // Day 1: CTL = 100/42 = 2.380952, ATL = 100/7 = 14.285714.
        // Day 2: CTL = 2.380952 × 41/42 = 2.324263, ATL = 14.285714 × 6/7 = 12.244898.
        // Day 3: CTL = 2.268923, ATL = 10.495627.
        // Day 4: CTL = 2.268923 + (50 − 2.268923)/42 = 3.405378, ATL = 10.495627 + (50 − 10.495627)/7 = 16.139109.
        let expected: [(ctl: Double, atl: Double)] = [
            (2.380952, 14.285714), (2.324263, 12.244898), (2.268923, 10.495627), (3.405378, 16.139109)
        ]
        #expect(days.map(\.date) == ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04"])
        for (day, want) in zip(days, expected) {
            #expect(abs(day.ctl - want.ctl) < 1e-5 && abs(day.atl - want.atl) < 1e-5, "\(day)")
            #expect(abs(day.tsb - (want.ctl - want.atl)) < 1e-5)
        }
    }
}
