import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// The session state machine, point filtering rules and sampling policy.
@Suite struct TrackingEngineTests {
    static let t0 = SyntheticTrack.start

    @Test func commandsAreIdempotentAndRejectedWhenTheyMakeNoSense() throws {
        var engine = RunEngine.test()
        try engine.resume(at: Self.t0.addingTimeInterval(1))  // resuming a tracking run changes nothing
        #expect(engine.state.state == .tracking)
        try engine.pause(at: Self.t0.addingTimeInterval(10))
        try engine.pause(at: Self.t0.addingTimeInterval(20))  // second pause keeps the first pause's start
        #expect(engine.state.pausedSince == Self.t0.addingTimeInterval(10).timeIntervalSince1970)
        try engine.resume(at: Self.t0.addingTimeInterval(40))
        #expect(engine.timer(at: Self.t0.addingTimeInterval(100).timeIntervalSince1970) == 70)
        #expect(engine.stop(at: Self.t0.addingTimeInterval(100)) == .draft)  // no distance: too short to save
        #expect(engine.stop(at: Self.t0.addingTimeInterval(200)) == .draft)
        #expect(engine.state.endedAt == Self.t0.addingTimeInterval(100).timeIntervalSince1970)
        #expect(throws: RunCommandError.notActive(id: "test-run", state: .draft, command: "pause")) {
            try engine.pause(at: Self.t0.addingTimeInterval(300))
        }
    }

    @Test func aStoppedRunCannotBeResumedButADraftCan() throws {
        var engine = RunEngine.test()
        for second in 0...100 {
            _ = engine.feed(SyntheticTrack.fix(second: Double(second), east: Double(second) * 3, north: 0, speed: 3))
        }
        var draft = engine
        #expect(engine.stop(at: Self.t0.addingTimeInterval(100)) == .stopped)
        #expect(throws: RunCommandError.self) { try engine.resume(at: Self.t0.addingTimeInterval(110)) }

        // The same run stopped after 50 s is a draft; resuming it continues, counting the stop as a pause.
        #expect(draft.stop(at: Self.t0.addingTimeInterval(50)) == .draft)
        try draft.resume(at: Self.t0.addingTimeInterval(60))
        #expect(draft.state.state == .tracking)
        #expect(draft.timer(at: Self.t0.addingTimeInterval(100).timeIntervalSince1970) == 90)
    }

    @Test func aRunMayStartBeforeTheFirstFixAndWaitsForGPS() {
        var engine = RunEngine.test()
        #expect(engine.state.waitingForGPS)
        let points = engine.feedAll([
            SyntheticTrack.noFix(second: 5),
            SyntheticTrack.fix(second: 6, east: 0, north: 0, accuracy: 80)
        ])
        #expect(points.map(\.rejection) == [.noPosition, .poorAccuracy])
        #expect(engine.state.waitingForGPS)
        #expect(SignalQuality(horizontalAccuracy: engine.state.lastAccuracy) == .unusable)
        _ = engine.feed(SyntheticTrack.fix(second: 7, east: 0, north: 0, accuracy: 12))
        #expect(!engine.state.waitingForGPS)
        #expect(engine.summary(at: Self.t0.addingTimeInterval(7)).elapsedTime == 7)
    }

    @Test func outOfOrderAndPausedFixesAreKeptWithTheirReason() throws {
        var engine = RunEngine.test()
        _ = engine.feed(SyntheticTrack.fix(second: 10, east: 0, north: 0))
        #expect(engine.feed(SyntheticTrack.fix(second: 9, east: 0, north: 0)).rejection == .outOfOrder)
        try engine.pause(at: Self.t0.addingTimeInterval(11))
        let paused = engine.feed(SyntheticTrack.fix(second: 12, east: 30, north: 0))
        #expect(paused.rejection == .paused)
        try engine.resume(at: Self.t0.addingTimeInterval(13))
        let resumed = engine.feed(SyntheticTrack.fix(second: 14, east: 60, north: 0))
        #expect(resumed.segment == paused.segment + 1)
        #expect(engine.state.distance == 0)  // nothing across the manual pause
        #expect(engine.state.pointCount == 4)
        #expect(engine.state.rejectedCount == 2)
    }

    @Test func accuracyLimitIsConfigurable() {
        var settings = TrackerSettings()
        settings.maxAccuracy = 10
        var engine = RunEngine.test(settings: settings)
        #expect(
            engine.feed(SyntheticTrack.fix(second: 1, east: 0, north: 0, accuracy: 10.5)).rejection == .poorAccuracy)
        #expect(engine.feed(SyntheticTrack.fix(second: 2, east: 0, north: 0, accuracy: 10)).rejection == nil)
    }

    @Test func activitiesHaveTheirOwnPlausibleSpeed() {
        // 20 m/s is a fine ride and an implausible run.
        for (activity, expected) in [(Activity.ride, 0), (.run, 1)] {
            var engine = RunEngine.test(activity)
            var rejected = 0
            for second in 0...20 {
                let east = second == 10 ? 10 * 5 + 20 : Double(second) * 5
                let point = engine.feed(SyntheticTrack.fix(second: Double(second), east: east, north: 0, speed: 5))
                if point.rejection == .implausibleJump { rejected += 1 }
            }
            #expect(rejected == expected, "\(activity)")
        }
    }

    @Test func movementPatternsAndSamplingPolicies() {
        #expect(MovementPattern(averageSpeed: 0.2) == .stationary)
        #expect(MovementPattern(averageSpeed: 0.5) == .walking)
        #expect(MovementPattern(averageSpeed: 2.0) == .jogging)
        #expect(MovementPattern(averageSpeed: 3.5) == .running)
        #expect(
            [MovementPattern.stationary, .walking, .jogging, .running].map {
                SamplingPolicy(pattern: $0, power: .normal, jitter: 0.5).minInterval
            } == [3, 2, 1, 1])
        // Route points are spaced by the measured noise: none on a clean recording, 9 m at 0.5 m of jitter.
        #expect(SamplingPolicy(pattern: .running, power: .normal, jitter: 0).minDistance == 0)
        #expect(SamplingPolicy(pattern: .running, power: .normal, jitter: 0.5).minDistance == 9)
        #expect(
            SamplingPolicy(pattern: .walking, power: .low, jitter: 0.5)
                == SamplingPolicy(minDistance: 11.25, minInterval: 2))
        #expect(SamplingPolicy(pattern: .running, power: .low, jitter: 0).minInterval == 1)
        #expect(SamplingPolicy(pattern: .running, power: .critical, jitter: 0).minInterval == 2)
        #expect(PowerState(capacityPercent: 31, charging: false) == .normal)
        #expect(PowerState(capacityPercent: 30, charging: false) == .low)
        #expect(PowerState(capacityPercent: 15, charging: false) == .low)
        #expect(PowerState(capacityPercent: 14, charging: false) == .critical)
        #expect(PowerState(capacityPercent: 5, charging: true) == .normal)
        #expect(PowerState(capacityPercent: nil, charging: false) == .normal)
    }

    @Test func criticalPowerThinsOutRoutePoints() {
        var normal = RunEngine.test()
        var critical = RunEngine.test()
        critical.setPower(.critical)
        var normalCount = 0
        var criticalCount = 0
        // 6 m/s at 2 Hz: 5 m apart is every fix at normal power; critical power allows one every 2 s.
        for step in 0...600 {
            let fix = SyntheticTrack.fix(second: Double(step) / 2, east: Double(step) * 3, north: 0, speed: 6)
            if normal.feed(fix).isAccepted { normalCount += 1 }
            if critical.feed(fix).isAccepted { criticalCount += 1 }
        }
        #expect(criticalCount <= normalCount / 2 + 2, "\(criticalCount) vs \(normalCount)")
        #expect(abs(critical.state.distance - normal.state.distance) < 15)
        #expect(critical.policy.minInterval == 2)
    }

    @Test func powerSupplyReadsAFakeSysfsFolder() throws {
        let root = try FileManager.default.url(
            for: .itemReplacementDirectory, in: .userDomainMask,
            appropriateFor: URL(fileURLWithPath: NSTemporaryDirectory()), create: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(PowerSupply(root: root).read().state == .normal)  // no battery
        let ac = root.appendingPathComponent("AC")
        try FileManager.default.createDirectory(at: ac, withIntermediateDirectories: true)
        try Data("1\n".utf8).write(to: ac.appendingPathComponent("online"))
        let battery = root.appendingPathComponent("BAT0")
        try FileManager.default.createDirectory(at: battery, withIntermediateDirectories: true)
        try Data("22\n".utf8).write(to: battery.appendingPathComponent("capacity"))
        try Data("Discharging\n".utf8).write(to: battery.appendingPathComponent("status"))
        #expect(PowerSupply(root: root).read() == PowerSupply.Reading(capacityPercent: 22, charging: false))
        #expect(PowerSupply(root: root).read().state == .low)
        try Data("9\n".utf8).write(to: battery.appendingPathComponent("capacity"))
        #expect(PowerSupply(root: root).read().state == .critical)
        try Data("Charging\n".utf8).write(to: battery.appendingPathComponent("status"))
        #expect(PowerSupply(root: root).read().state == .normal)
        try Data("garbage".utf8).write(to: battery.appendingPathComponent("capacity"))
        #expect(PowerSupply(root: root).read().state == .normal)
    }

    @Test func liveStatusFormatsInTheConfiguredUnits() throws {
        var engine = RunEngine.test()
        for second in 0...300 {
            _ = engine.feed(
                SyntheticTrack.fix(second: Double(second), east: Double(second) * 4, north: 0, speed: 4, accuracy: 6))
        }
        let now = Self.t0.addingTimeInterval(300)
        let metric = LiveStatus(
            engine: engine, now: now, power: .init(capacityPercent: nil, charging: false), units: .metric)
        #expect(metric.text.pace == "4:10 /km")
        #expect(metric.text.distance.hasSuffix(" km"))
        #expect(metric.signalQuality == .good)
        #expect(metric.movementPattern == .running)
        #expect(metric.message == "tracking")
        #expect(metric.currentSplit.index == 2)
        let imperial = LiveStatus(
            engine: engine, now: now, power: .init(capacityPercent: nil, charging: false), units: .imperial)
        #expect(imperial.text.pace == "6:42 /mi")
        let json = try MeridianJSON.string(metric)
        for key in [
            "\"waiting_for_gps\":false", "\"current_pace_s_per_km\":", "\"min_distance_m\":0,",
            "\"avg_pace_s_per_km\":",
            "\"distance_m\":", "\"rejected_points\":", "\"ended_at\":null"
        ] {
            #expect(json.contains(key), "\(key) missing in \(json)")
        }
    }

    @Test func runSummaryJSONRoundTripsWithTheDocumentedKeys() throws {
        let summary = RunSummary(
            id: "a", name: "Morning", activity: .run, state: .stopped, startedAt: Self.t0,
            endedAt: Self.t0.addingTimeInterval(600), distance: 2000, elapsedTime: 600, timerTime: 590,
            movingTime: 580, averagePace: 295, maxSpeed: 4.1, ascent: 12, descent: 11, pointCount: 600,
            rejectedPointCount: 20, segmentCount: 1)
        let json = try MeridianJSON.string(summary)
        for key in [
            "id", "name", "notes", "activity", "state", "started_at", "ended_at", "distance_m", "elapsed_s", "timer_s",
            "moving_s", "avg_pace_s_per_km", "max_speed_mps", "ascent_m", "descent_m", "points", "rejected_points",
            "segments"
        ] {
            #expect(json.contains("\"\(key)\":"), "\(key)")
        }
        #expect(try MeridianJSON.makeDecoder().decode(RunSummary.self, from: Data(json.utf8)) == summary)
    }
}

/// The jump check's flat-earth shortcut must never change a decision of the exact geodesic test.
@Suite struct JumpCheckTests {
    @Test func shortcutAgreesWithTheGeodesicNearTheLimit() throws {
        var random = SeededRandom(seed: 42)
        var jumps = 0
        for _ in 0..<20_000 {
            let from = try Coordinate(
                latitude: Double.random(in: -89.9...89.9, using: &random),
                longitude: Double.random(in: -180..<180, using: &random))
            let seconds = Double.random(in: 0.2...30, using: &random)
            let uncertainty = Double.random(in: 0...40, using: &random)
            let limit = [4.0, 5, 12, 30, 60][Int.random(in: 0..<5, using: &random)]
            // Distances within 3 % of the decisive one, so a shortcut that is too generous would be caught.
            let distance = (limit * seconds + uncertainty) * Double.random(in: 0.97...1.03, using: &random)
            let to = try Geodesic.wgs84.direct(
                from: from, bearing: Double.random(in: 0..<360, using: &random), distance: distance
            ).destination
            let exact = max(0, Geodesic.wgs84.distance(from, to) - uncertainty) / seconds > limit
            #expect(
                RunEngine.needsSpeed(from: from, to: to, allowing: uncertainty, in: seconds, above: limit) == exact,
                "\(from) → \(to) in \(seconds) s, ±\(uncertainty) m, limit \(limit) m/s")
            if exact { jumps += 1 }
        }
        #expect(jumps > 5_000 && jumps < 15_000)  // both outcomes are exercised
    }
}
