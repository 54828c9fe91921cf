import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// Signal losses are judged against the recording's own interval, not a fixed number of seconds.
@Suite struct DataQualityTests {
    static func quality(_ seconds: [Double]) -> DataQuality {
        var engine = RunEngine.test()
        let points = engine.feedAll(seconds.map { SyntheticTrack.fix(second: $0, east: $0 * 3, north: 0, speed: 3) })
        return DataQuality(points: points, start: SyntheticTrack.start)
    }

    @Test func aTunnelInAOneHertzRecordingIsOneSignalLoss() {
        let quality = Self.quality((0...120).map(Double.init) + (180...300).map(Double.init))
        #expect(quality.recordingInterval == 1)
        #expect(quality.gapCount == 1 && quality.gapTime == 60 && quality.longestGap == 60)
        #expect(quality.gaps.first?.startOffset == 120)
    }

    @Test func aLoggerThatWritesEveryElevenSecondsHasNoSignalLoss() {
        let quality = Self.quality(stride(from: 0.0, through: 1100, by: 11).map { $0 })
        #expect(quality.recordingInterval == 11)
        #expect(quality.gapCount == 0 && quality.gapTime == 0)
    }

    @Test func lossesAreCountedBeyondThreeTimesTheUsualInterval() {
        // Every 4 s, with one silence of 12 s (the usual rhythm of smart recording) and one of 40 s (a loss).
        var seconds = stride(from: 0.0, through: 200, by: 4).map { $0 }
        seconds += [212] + stride(from: 216.0, through: 400, by: 4).map { $0 }
        seconds += [440] + stride(from: 444.0, through: 600, by: 4).map { $0 }
        let quality = Self.quality(seconds)
        #expect(quality.gapCount == 1 && quality.longestGap == 40)
    }
}
