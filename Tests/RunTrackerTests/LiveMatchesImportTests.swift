import ActivityFiles
import Foundation
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Synchronization
import Testing
import Workloads

@testable import RunTracker

/// Live tracking and import give the same figures for the same fixes: one engine, one gap and pause model.
@Suite struct LiveMatchesImportTests {
    /// A clock set to each fix's time before it is consumed, so the live controller stamps fixes as the file does.
    final class FixClock: Sendable {
        private let current = Mutex(Date.distantPast)
        func now() -> Date { current.withLock { $0 } }
        func set(_ date: Date) { current.withLock { $0 = date } }
    }

    /// A noisy 40-minute run with stops, a 60 s tunnel (no fixes) and smart-recording stretches (one fix every 2–9 s).
    static func recording() -> [Fix] {
        let run = SyntheticRun(
            id: "live", name: "Live", startedAt: SyntheticTrack.start, origin: SyntheticTrack.origin,
            duration: 2400, paceSecondsPerKilometre: 320, seed: 11)
        var random = SeededRandom(seed: 12)
        var fixes: [Fix] = []
        var skipUntil = 0.0
        for fix in run.fixes {
            let second = fix.time.timeIntervalSince(SyntheticTrack.start)
            if (900..<960).contains(second) { continue }  // a tunnel
            if second >= 1500 && second < 2100 {  // smart recording
                guard second >= skipUntil else { continue }
                skipUntil = second + Double(Int.random(in: 2...9, using: &random))
            }
            fixes.append(fix)
        }
        return fixes
    }

    @Test func liveAndImportAgree() async throws {
        let fixes = Self.recording()
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = FixClock()
        clock.set(fixes[0].time)
        let controller = LiveRunController(
            runStore: try RunStore(store: folder.store), settings: TrackerSettings(),
            events: EventBus(), units: .metric, logger: Logger(label: "test"),
            clock: { clock.now() })
        let started = try await controller.start(name: "Live", activity: .run, id: "live")
        for fix in fixes {
            clock.set(fix.time)
            await controller.consume(fix)
        }
        let live = try await controller.stop(id: started.run.id).run

        let recording = RecordedActivity(
            format: .nmea, startTime: fixes[0].time, samples: fixes.map(RecordedSample.init))
        let imported = try #require(RunImport.track(recording, id: "import", name: "Import", activity: .run)).summary
        #expect(live.distance == imported.distance, "live \(live.distance) m, import \(imported.distance) m")
        #expect(live.movingTime == imported.movingTime)
        #expect(live.timerTime == imported.timerTime)
        #expect(live.segmentCount == imported.segmentCount && live.segmentCount == 1)
        #expect(live.pointCount == imported.pointCount && live.rejectedPointCount == imported.rejectedPointCount)
        #expect(live.distance > 7000, "the tunnel and the sparse stretch are bridged: \(live.distance) m")
    }
}
