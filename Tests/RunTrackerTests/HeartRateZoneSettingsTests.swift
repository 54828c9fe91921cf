import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// The heart-rate zones of a run follow the configured `max_heart_rate` on its page and in the API, as in
/// `runs show`: one setting, read where training load reads it.
@Suite("Heart-rate zones of the configured maximum")
struct HeartRateZoneSettingsTests {
    /// The Fenix 2's run with heart rate (91–171 bpm), imported as run `hr`.
    static func fill(_ fixture: HistoryFixture) throws {
        let recording = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__activity-small-fenix2-run.fit")).first)
        _ = try RunStore(store: fixture.store).importRun(recording, id: "hr", name: "Fenix 2")
    }

    @Test(
        "max_heart_rate 150: the run page and GET /v1/runs/{id} show zones of 150 bpm (75–90 … ≥ 135); 190 without it")
    func configuredMaximum() async throws {
        let configured = "consumers:\n  - type: run-tracker\n    max_heart_rate: 150\n"
        try await TrackerServer.with(yaml: configured, filling: Self.fill) { server in
            let page = try await server.client.request("GET", "/runs/hr")
            #expect(page.status == 200)
            #expect(page.text.contains("Heart-rate zones, of max 150 bpm"), "\(page.text)")
            #expect(page.text.contains(">75–90<") && page.text.contains(">≥ 135<"))
            let detail = try await server.call("GET", "/v1/runs/hr")
            let zones = (try detail.json()["analysis"] as? [String: Any])?["heart_rate_zones"] as? [String: Any]
            #expect(zones?["max_heart_rate_bpm"] as? Double == 150)
        }
        try await TrackerServer.with(filling: Self.fill) { server in
            let page = try await server.client.request("GET", "/runs/hr")
            #expect(page.text.contains("Heart-rate zones, of max 190 bpm") && page.text.contains(">95–114<"))
        }
    }
}
