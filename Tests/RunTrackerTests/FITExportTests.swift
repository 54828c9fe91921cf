import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("Export: FIT, checked by Garmin's SDK, fitdecode and a re-import", .serialized)
struct FITExportTests {
    /// Real device files: a run with ten gaps, a ride with timer stops, a treadmill run without positions.
    static let files = [
        "fit/fitparse__2013-02-06-12-11-14.fit", "fit/fitparse__garmin-edge-500-activity.fit",
        "fit/fitparse__compressed-speed-distance.fit"
    ]

    @Test(
        "an imported device file exported as FIT passes Garmin's SDK and imports back with the same distance (±0.1 %), timer (±1 s), pauses and heart rate (±1 bpm)",
        arguments: files)
    func deviceFileThroughFIT(file: String) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let recording = try #require(try ActivityFileReader.read(contentsOf: TestData.url(file)).first)
        let stored = try #require(try RunStore(store: fixture.store).importRun(recording, id: "device", name: "device"))
        let points = try fixture.points(ofRun: "device")
        let run = stored.summary
        let bytes = ExportFormat.fit.file(run: run, points: points)
        let check = try await FITCheck.run(Array(bytes))
        #expect(
            check.integrity && check.garminErrors.isEmpty && check.fitdecodeErrors.isEmpty,
            "\(check.garminErrors) \(check.fitdecodeErrors)")
        // Every fix but those received while paused or out of order: the unused ones without a position.
        #expect(
            check.garminMessages["record_mesgs"]
                == points.filter { ![.paused, .outOfOrder].contains($0.rejection) }.count)
        let indoor = !points.contains { $0.coordinate != nil }
        #expect(
            check.session["sub_sport"] as? String
                == (indoor ? (run.activity == .run ? "treadmill" : "indoor_cycling") : "generic"))
        let again = try ExportTests.roundTrip(run, points, as: .fit, into: fixture).summary
        #expect(abs(again.distance - run.distance) <= 0.001 * run.distance, "\(again.distance) vs \(run.distance)")
        #expect(abs(again.timerTime - run.timerTime) <= 1, "\(again.timerTime) vs \(run.timerTime)")
        #expect(again.segmentCount == run.segmentCount)
        #expect(abs((again.averageHeartRate ?? 0) - (run.averageHeartRate ?? 0)) <= 1)
        #expect(again.activity == run.activity)
        // The session carries Meridian's own totals, which the re-import keeps as the device's.
        #expect(again.device?.distance.map { abs($0 - run.distance) <= 0.01 } == true)
    }

    @Test("GET /v1/runs/{id}.fit serves the FIT file as a binary attachment")
    func servedOverHTTP() async throws {
        try await TrackerServer.with([
            Fixtures.run("fitrun", day: 0, duration: 600, pauses: [(offset: 200, length: 30)])
        ]) { server in
            let response = try await server.call("GET", "/v1/runs/fitrun.fit")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/vnd.ant.fit")
            #expect(response.headers["content-disposition"] == "attachment; filename=\"fitrun.fit\"")
            let check = try await FITCheck.run(Array(response.body))
            #expect(check.integrity && check.garminErrors.isEmpty, "\(check.garminErrors)")
            #expect(check.events.filter { $0["event_type"] as? String == "stop_all" }.count == 2)
        }
    }
}
