import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// The live status and the now page's run card show a signal only while the run's last fix is fresh.
@Suite struct SignalAgeTests {
    static func status(_ engine: RunEngine, atSecond second: Double) -> LiveStatus {
        LiveStatus(
            engine: engine, now: SyntheticTrack.start.addingTimeInterval(second),
            power: .init(capacityPercent: nil, charging: false), units: .metric)
    }

    @Test func aFix63SecondsOldShowsNoSignalAndAFreshOneShowsItAgain() {
        var engine = RunEngine.test()
        #expect(
            LiveRunSection.activeModel(Self.status(engine, atSecond: 0), figures: RunFigures(units: .metric)).active?
                .signal
                == "waiting for GPS")
        for second in 0...30 {
            _ = engine.feed(
                SyntheticTrack.fix(second: Double(second), east: Double(second) * 4, north: 0, speed: 4, accuracy: 6))
        }
        let fresh = Self.status(engine, atSecond: 31)
        #expect(fresh.signalQuality == .good && fresh.lastFixAgeS == 1)
        #expect(LiveRunSection.activeModel(fresh, figures: RunFigures(units: .metric)).active?.signal == "signal good")

        let stale = Self.status(engine, atSecond: 93)
        #expect(stale.signalQuality == nil && stale.lastFixAgeS == 63 && !stale.waitingForGps)
        #expect(
            LiveRunSection.activeModel(stale, figures: RunFigures(units: .metric)).active?.signal
                == "no signal (last fix 63 s ago)")

        _ = engine.feed(SyntheticTrack.fix(second: 93, east: 124, north: 0, speed: 4, accuracy: 6))
        #expect(Self.status(engine, atSecond: 93).signalQuality == .good)
    }
}
