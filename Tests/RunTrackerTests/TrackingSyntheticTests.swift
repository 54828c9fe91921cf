import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// Synthetic tracks with known truth through the pure tracking engine.
@Suite struct TrackingSyntheticTests {
    /// 10 laps of a 400 m oval at 3.5 m/s, 1 Hz, with a wandering bias (σ 3 m) and white jitter (σ 0.5 m).
    static func ovalFixes(reportSpeed: Bool, seed: UInt64) -> [Fix] {
        var noise = GPSNoise(seed: seed)
        var speedNoise = SeededRandom(seed: seed &+ 1)
        let speed = 3.5
        let duration = Int((4000 / speed).rounded(.up))
        return (0...duration).map { second in
            let truth = SyntheticTrack.oval(at: min(4000, Double(second) * speed))
            let error = noise.next()
            let reported = second * Int(speed) >= 4000 ? 0 : speed + speedNoise.gaussian(sigma: 0.15)
            return SyntheticTrack.fix(
                second: Double(second), east: truth.east + error.east, north: truth.north + error.north,
                speed: reportSpeed ? max(0, reported) : nil, accuracy: 4 + Double(second % 3))
        }
    }

    @Test(arguments: [true, false])
    func ovalTenLapsIsWithinOnePercent(reportSpeed: Bool) {
        var engine = RunEngine.test()
        let points = engine.feedAll(Self.ovalFixes(reportSpeed: reportSpeed, seed: 7))
        let distance = engine.state.distance
        #expect(abs(distance - 4000) / 4000 < 0.01, "distance \(distance) m for 4000 m")
        #expect(points.filter { $0.rejection == .implausibleJump }.isEmpty)
        #expect(engine.state.segmentsWithPoints == 1)
    }

    /// Standing still for 10 minutes with every fix 5–10 m from the truth in a random direction.
    static func standingFixes(seed: UInt64, reportSpeed: Bool) -> [Fix] {
        var random = SeededRandom(seed: seed)
        return (0..<600).map { second in
            let radius = Double.random(in: 5...10, using: &random)
            let bearing = Double.random(in: 0..<(2 * .pi), using: &random)
            let speed = reportSpeed ? abs(random.gaussian(sigma: 0.15)) : nil
            return SyntheticTrack.fix(
                second: Double(second), east: radius * sin(bearing), north: radius * cos(bearing),
                speed: speed, accuracy: 8)
        }
    }

    @Test(arguments: [true, false])
    func standingStillForTenMinutesCountsAtMostFiveMetres(reportSpeed: Bool) {
        for seed: UInt64 in 1...5 {
            var settings = TrackerSettings()
            settings.profiles[.run]?.autoPause = false
            var engine = RunEngine.test(settings: settings)
            let points = engine.feedAll(Self.standingFixes(seed: seed, reportSpeed: reportSpeed))
            #expect(engine.state.distance <= 5, "seed \(seed): \(engine.state.distance) m counted while standing")
            #expect(points.filter { $0.rejection == .stationaryDrift }.count > 550)
            // A stray Doppler reading above 0.5 m/s may count its second, nothing more.
            #expect(engine.state.movingTime <= 6, "seed \(seed): moving \(engine.state.movingTime) s")
        }
    }

    /// Fixes along a straight line east at `speed`, at the given seconds (a test of what happens between them).
    static func straightRun(at seconds: [Double], speed: Double = 3.5) -> [Fix] {
        seconds.map { SyntheticTrack.fix(second: $0, east: $0 * speed, north: 0, speed: speed) }
    }

    @Test func sixtySecondTunnelIsBridgedWithTheStraightLine() {
        // 120 s at 3.5 m/s, 60 s without a fix (a tunnel: 210 m unseen), then 120 s more.
        var fixes = Self.straightRun(at: (0...120).map(Double.init))
        fixes += (121..<180).map { SyntheticTrack.noFix(second: Double($0)) }
        fixes += Self.straightRun(at: (180...300).map(Double.init))
        var engine = RunEngine.test()
        let points = engine.feedAll(fixes)
        #expect(abs(engine.state.distance - 1050) < 1, "\(engine.state.distance)")
        #expect(engine.state.segmentsWithPoints == 1)
        #expect(engine.state.movingTime == 300)
        #expect(points.first { $0.time == SyntheticTrack.start.addingTimeInterval(180) }?.rejection == nil)
    }

    @Test(arguments: [false, true])
    func sparseSamplingEveryFifteenToTwentyFiveSecondsIsOneSegment(reportSpeed: Bool) {
        // A slow logger or smart recording: one fix every 15–25 s at a steady 3 m/s for an hour.
        var random = SeededRandom(seed: 5)
        var seconds: [Double] = [0]
        while seconds[seconds.count - 1] < 3600 {
            seconds.append(seconds[seconds.count - 1] + Double(Int.random(in: 15...25, using: &random)))
        }
        let fixes = seconds.map { SyntheticTrack.fix(second: $0, east: $0 * 3, north: 0, speed: reportSpeed ? 3 : nil) }
        var engine = RunEngine.test()
        let points = engine.feedAll(fixes)
        let truth = seconds[seconds.count - 1] * 3
        #expect(abs(engine.state.distance - truth) < 1, "\(engine.state.distance) for \(truth)")
        #expect(engine.state.segmentsWithPoints == 1)
        #expect(points.allSatisfy { $0.rejection == nil })
        #expect(engine.state.movingTime == seconds[seconds.count - 1])
    }

    @Test func fiveMinuteStopWithDriftAndNoFixesCountsNothing() {
        // Running, then 300 s without fixes; the next fix is 15 m from the last (drift), then running again.
        var settings = TrackerSettings()
        settings.profiles[.run]?.autoPause = false
        var fixes = Self.straightRun(at: (0...60).map(Double.init))
        fixes.append(SyntheticTrack.fix(second: 360, east: 210, north: 15, speed: nil))
        fixes += (361...420).map {
            SyntheticTrack.fix(second: Double($0), east: 210 + Double($0 - 360) * 3.5, north: 15, speed: 3.5)
        }
        var engine = RunEngine.test(settings: settings)
        let points = engine.feedAll(fixes)
        #expect(points.first { $0.time == SyntheticTrack.start.addingTimeInterval(360) }?.rejection == .stationaryDrift)
        // 210 m before the stop and 210 m after it; the 15 m of drift may appear at most once.
        #expect(engine.state.distance >= 420 - 1 && engine.state.distance <= 420 + 15 + 1, "\(engine.state.distance)")
        #expect(engine.state.segmentsWithPoints == 1)
        #expect(engine.state.movingTime <= 120 + 1, "\(engine.state.movingTime)")
    }

    @Test func spikeStraightAfterAGapIsRejectedAgainstTheLastGoodFix() {
        // 30 s without fixes, then a fix 2 km off (67 m/s from the last good fix), then the true track again.
        var fixes = Self.straightRun(at: (0...60).map(Double.init))
        fixes.append(SyntheticTrack.fix(second: 90, east: 2000, north: 2000, speed: 3.5))
        fixes += Self.straightRun(at: (91...150).map(Double.init))
        var engine = RunEngine.test()
        let points = engine.feedAll(fixes)
        #expect(points.first { $0.time == SyntheticTrack.start.addingTimeInterval(90) }?.rejection == .implausibleJump)
        #expect(abs(engine.state.distance - 150 * 3.5) < 1, "\(engine.state.distance)")
        #expect(engine.state.segmentsWithPoints == 1)
    }

    @Test func spikesAreRejectedAsImplausibleJumps() {
        var fixes: [Fix] = []
        for second in 0...300 {
            let east = Double(second) * 3.0
            let spike = [50, 51, 180].contains(second)
            fixes.append(SyntheticTrack.fix(second: Double(second), east: east, north: spike ? 250 : 0, speed: 3.0))
        }
        var engine = RunEngine.test()
        let points = engine.feedAll(fixes)
        #expect(points.filter { $0.rejection == .implausibleJump }.map(\.sequence) == [50, 51, 180])
        #expect(abs(engine.state.distance - 900) < 9, "\(engine.state.distance)")
    }

    @Test func persistentJumpIsBelievedAfterFiveFixesWithoutDistance() {
        // The receiver jumps 2 km and stays there: after five rejections it starts a new segment.
        var fixes: [Fix] = []
        for second in 0...100 {
            fixes.append(SyntheticTrack.fix(second: Double(second), east: Double(second) * 3, north: 0, speed: 3))
        }
        for second in 101...200 {
            fixes.append(SyntheticTrack.fix(second: Double(second), east: Double(second) * 3, north: 2000, speed: 3))
        }
        var engine = RunEngine.test()
        let points = engine.feedAll(fixes)
        #expect(points.filter { $0.rejection == .implausibleJump }.count == 4)
        #expect(engine.state.segmentsWithPoints == 2)
        #expect(abs(engine.state.distance - 3 * 195) < 10, "\(engine.state.distance)")
    }

    /// Walks at 1.4 m/s (speed reported, 1 Hz) with stops of 60 s, 20 s and 120 s.
    @Test func walkWithStopsAutoPausesAndCountsMovingTimeExactly() throws {
        let phases: [(moving: Bool, seconds: Int)] = [
            (true, 300), (false, 60), (true, 200), (false, 20), (true, 100),
            (false, 120), (true, 100)
        ]
        var fixes: [Fix] = []
        var second = 0
        var east = 0.0
        var noise = GPSNoise(seed: 3, biasSigma: 1.5, whiteSigma: 0.3)
        fixes.append(SyntheticTrack.fix(second: 0, east: 0, north: 0, speed: 0))
        for phase in phases {
            for _ in 0..<phase.seconds {
                second += 1
                if phase.moving { east += 1.4 }
                let error = noise.next()
                fixes.append(
                    SyntheticTrack.fix(
                        second: Double(second), east: east + error.east, north: error.north,
                        speed: phase.moving ? 1.4 : 0))
            }
        }
        var engine = RunEngine.test(.walk)
        var states: [(Int, RunState)] = []
        for fix in fixes {
            let before = engine.state.state
            let point = engine.feed(fix)
            if engine.state.state != before { states.append((point.sequence, engine.state.state)) }
        }
        let end = SyntheticTrack.start.addingTimeInterval(Double(second))
        #expect(engine.stop(at: end) == .stopped)
        let summary = engine.summary(at: end)
        #expect(summary.movingTime == 700)
        // Stops longer than 30 s auto-pause after 30 s; the 20 s stop does not.
        #expect(states.map(\.1) == [.paused, .tracking, .paused, .tracking])
        #expect(summary.elapsedTime == Double(second))
        #expect(summary.timerTime == Double(second) - (60 - 30) - (120 - 30))
        #expect(abs(summary.distance - 700 * 1.4) < 700 * 1.4 * 0.01, "\(summary.distance)")
        #expect(summary.segmentCount == 1)
    }

    @Test func elevationIgnoresAltitudeNoiseAndCountsAClimb() {
        var random = SeededRandom(seed: 11)
        var engine = RunEngine.test()
        var fixes: [Fix] = []
        // 300 s flat with ±2 m altitude noise, then 300 s climbing 50 m, then 300 s flat again.
        for second in 0..<900 {
            let climb = min(50, max(0, Double(second - 300) / 300 * 50))
            fixes.append(
                SyntheticTrack.fix(
                    second: Double(second), east: Double(second) * 3, north: 0, speed: 3,
                    altitude: 500 + climb + random.gaussian(sigma: 1.0)))
        }
        _ = engine.feedAll(fixes)
        #expect(abs(engine.state.ascent - 50) < 5, "ascent \(engine.state.ascent)")
        #expect(engine.state.descent < 5, "descent \(engine.state.descent)")
    }

    @Test func smoothedPaceAndSplitsFollowTheRunner() {
        var engine = RunEngine.test()
        for second in 0...700 {
            _ = engine.feed(SyntheticTrack.fix(second: Double(second), east: Double(second) * 4, north: 0, speed: 4))
        }
        let speed = try? #require(engine.currentSpeed)
        #expect(abs((speed ?? 0) - 4) < 0.1)
        #expect(engine.state.completedSplits.count == 2)
        #expect(abs((engine.state.completedSplits.first?.time ?? 0) - 250) < 3)
        #expect(engine.pattern == .running)
    }
}
