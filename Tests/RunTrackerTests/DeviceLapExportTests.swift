import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("Laps: the device's laps are kept on import and written back in FIT and TCX", .serialized)
struct DeviceLapExportTests {
    /// A Forerunner 110 run (four distance laps and a manual one), an Edge 500 ride (manual laps), and a Forerunner
    /// 405 treadmill TCX (five distance laps and a manual one).
    @Test(arguments: [
        "fit/fitparse__2013-02-06-12-11-14.fit", "fit/fitparse__garmin-edge-500-activity.fit",
        "fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx"
    ])
    func lapsKeptAndWrittenBack(file: String) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let recording = try #require(try ActivityFileReader.read(contentsOf: TestData.url(file)).first)
        #expect(recording.laps.count > 1)
        let stored = try #require(try RunStore(store: fixture.store).importRun(recording, id: "laps", name: "laps"))
        let points = try fixture.points(ofRun: "laps")
        let laps = try await fixture.store.database.read { db in try RunLaps.load(db, runID: "laps") }
        #expect(laps == recording.laps)

        let fit = ExportFormat.fit.file(run: stored.summary, points: points, deviceLaps: laps)
        let back = try #require(try ActivityFileReader.read(fit, file: "laps.fit").first)
        #expect(back.laps.count == laps.count)
        for (written, device) in zip(back.laps, laps) {
            // FIT keeps centimetres and milliseconds.
            #expect(written.trigger == device.trigger)
            #expect(abs((written.distance ?? -1) - (device.distance ?? -1)) <= 0.005)
            #expect(abs((written.timerTime ?? -1) - (device.timerTime ?? -1)) <= 0.0005)
            #expect(abs(written.start.timeIntervalSince(device.start)) < 1)
        }
        let check = try await FITCheck.run(Array(fit))
        #expect(check.integrity && check.garminErrors.isEmpty && check.laps.count == laps.count)

        let tcx = ExportFormat.tcx.file(run: stored.summary, points: points, deviceLaps: laps)
        let fromTCX = try #require(try ActivityFileReader.read(tcx, file: "laps.tcx").first)
        #expect(fromTCX.laps.count == laps.count)
        #expect(fromTCX.laps.map(\.trigger) == laps.map { $0.trigger == .distance ? .distance : .manual })
        #expect(zip(fromTCX.laps, laps).allSatisfy { abs(($0.distance ?? 0) - ($1.distance ?? 0)) < 0.01 })
        // Every measured point is in one lap.
        #expect(
            tcx.count > 0
                && String(decoding: tcx, as: UTF8.self).components(separatedBy: "<Trackpoint>").count - 1
                    == points.filter { $0.isAccepted && $0.distance != nil }.count
        )
    }
}
