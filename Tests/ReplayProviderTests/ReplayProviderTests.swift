import Foundation
import Logging
import MeridianCore
import MeridianTesting
import ReplayProvider
import Synchronization
import Testing

@Suite("replay provider")
struct ReplayProviderTests {
    static let sample = TestData.repositoryRoot.appendingPathComponent("Config/samples/sample-run.nmea").path

    func make(_ yaml: String, context: ProviderContext) throws -> any LocationProvider {
        try ReplayProvider.registration.make(try PluginOptions(yaml: yaml), context)
    }

    @Test func conformsAtFullSpeed() async throws {
        let report = try await ProviderConformance.run(minimumFixes: 100) { context in
            try make("file: \(Self.sample)\nspeed: 0", context: context)
        }
        #expect(report.violations.isEmpty, "\(report.violations)")
        #expect(report.finalHealth.counters["sentences"] ?? 0 > 0)
    }

    @Test func conformsInRealTimeWithLoopAndStopsOnShutdown() async throws {
        let started = Date()
        let report = try await ProviderConformance.run(minimumFixes: 2, stopWithin: 2) { context in
            try make("file: \(Self.sample)\nspeed: 1\nloop: true\nretime: true", context: context)
        }
        #expect(report.violations.isEmpty, "\(report.violations)")
        // Still looping when shut down: stopped like every provider that reconnects, not finished or failed.
        #expect(report.finalHealth.state == .disconnected && report.finalHealth.message == "stopped")
        // Retimed: the first fix is stamped with the replay's start, not 2024.
        let first = try #require(report.fixes.first)
        #expect(abs(first.time.timeIntervalSince(started)) < 60)
        // Real time: consecutive fixes are one second apart in the log and in their stamps.
        if report.fixes.count >= 2 {
            #expect(abs(report.fixes[1].time.timeIntervalSince(report.fixes[0].time) - 1) < 0.01)
        }
    }

    @Test func finishesAndReportsCountersWithoutLoop() async throws {
        let directory = try TestData.temporaryDirectory("replay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("short.nmea")
        try Data(contentsOf: TestData.url("nmea/garmin15x.log")).write(to: url)
        let fixes = Mutex<[Fix]>([])
        let health = ProviderHealth()
        let context = ProviderContext(plugin: PluginContext(id: "r", logger: Logger(label: "test")), health: health) {
            fix in
            fixes.withLock { $0.append(fix) }
        }
        let provider = try make("file: \(url.path)\nspeed: 0", context: context)
        try await provider.run()
        #expect(health.snapshot.state == .finished)
        #expect(health.snapshot.counters["fixes_emitted"] == fixes.withLock { $0.count })
        #expect(health.snapshot.counters["sentences"] == 49)
        #expect(fixes.withLock { $0.count } == 7)
    }

    @Test func optionErrorsNameTheKey() throws {
        let context = ProviderContext(plugin: PluginContext(id: "r", logger: Logger(label: "test"))) { _ in }
        #expect {
            _ = try make("file: /nonexistent/run.nmea", context: context)
        } throws: { error in
            let text = "\(error)"
            return text.contains("file") && text.contains("/nonexistent/run.nmea")
        }
        #expect {
            _ = try make("file: \(Self.sample)\nspeed: -1", context: context)
        } throws: { "\($0)".contains("speed") }
        #expect {
            _ = try make("file: \(Self.sample)\nformat: kml", context: context)
        } throws: { "\($0)".contains("auto, nmea, gpx, gpsd") }
        #expect {
            _ = try make("file: \(Self.sample)\nsped: 2", context: context)
        } throws: { "\($0)".contains("sped") }
    }
}
