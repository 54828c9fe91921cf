import Foundation
import MeridianCore
import MeridianTesting
import ReplayProvider
import Testing
@testable import RunTracker

/// Real recorded files through the same import pipeline as `meridian runs import`.
@Suite struct TrackingRealFileTests {
    static func importFile(_ name: String, activity: Activity = .run) throws -> (engine: RunEngine, points: [TrackPoint]) {
        let fixes = try TrackFileReader.read(url: TestData.url("gpx/\(name)"), providerID: "test") { _ in }
        return try #require(RunImport.track(fixes, name: name, activity: activity))
    }

    /// Garmin Edge 705, 2 laps: the device measured 18 990.30 m. Ten sampling gaps longer than `gap_s`
    /// (52 s and 138 s among them) are not bridged here, where the device drew straight lines; the 45 m/s
    /// spike is rejected. Tolerance: −4 % … +1 % of the device distance.
    @Test func edge705RunMatchesTheDeviceDistance() throws {
        let (engine, points) = try Self.importFile("sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx")
        let summary = engine.summary(at: Date(timeIntervalSince1970: try #require(engine.state.endedAt)))
        let device = 18_990.30
        #expect(summary.distance > device * 0.96 && summary.distance < device * 1.01, "distance \(summary.distance) m")
        #expect(points.contains { $0.rejection == .implausibleJump })
        // The 45 m/s spike must not set the max speed. The file also holds bursts of 8–12 m/s steps (GPS error
        // around 07:49) that are within the run limit; the 15–30 s smoothing keeps them near 6 m/s.
        #expect(summary.maxSpeed < 7, "max speed \(summary.maxSpeed) m/s")
        #expect(summary.state == .stopped)
        // The 8 h between the laps is a pause; the device's lap timers add up to 5 811.93 s.
        #expect(abs(summary.timerTime - 5_811.93) / 5_811.93 < 0.06, "timer \(summary.timerTime) s")
        #expect(summary.movingTime <= summary.timerTime)
        #expect(summary.movingTime > 5_811.93 * 0.9, "moving \(summary.movingTime) s")
    }

    /// A car drive with 1–2 minute stops and many sampling gaps over 10 s. Truth is not known; the sum of
    /// the raw steps within segments (no step longer than `gap_s`) is an upper bound that includes the
    /// wander while standing. Meridian must stay below it and within 10 % of it.
    @Test func carTrackWithStopsStaysBelowTheRawSum() throws {
        let fixes = try TrackFileReader.read(url: TestData.url("gpx/gpxpy__around-visnjan-with-car.gpx"), providerID: "test") { _ in }
        var rawWithinSegments = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) where b.time.timeIntervalSince(a.time) <= TrackerSettings().gapSeconds {
            if let from = a.coordinate, let to = b.coordinate { rawWithinSegments += Geodesic.wgs84.distance(from, to) }
        }
        let tracked = try #require(RunImport.track(fixes, name: "car", activity: .other))
        #expect(tracked.engine.state.distance < rawWithinSegments, "\(tracked.engine.state.distance) vs \(rawWithinSegments)")
        #expect(tracked.engine.state.distance > rawWithinSegments * 0.9, "\(tracked.engine.state.distance) vs \(rawWithinSegments)")
        #expect(tracked.points.contains { $0.rejection == .stationaryDrift })
    }
}
