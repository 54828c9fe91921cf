import Foundation
import MeridianTesting
import Testing

/// `/v1/providers` lists every counter a provider's README names, from the start (0 until counted), and a GPX replay's
/// point counts while it is still replaying.
@Suite("provider counters")
struct ProviderCountersTests {
    @Test("replays (GPX and NMEA), a serial receiver and gpsd show their documented counters")
    func documentedCounters() async throws {
        let gpx = TestData.url("gpx/gpxpy__korita-zbevnica.gpx").path
        let nmea = TestData.repositoryRoot.appendingPathComponent("Config/samples/sample-run.nmea").path
        let gpsdPort = try FreePort.next()
        let served = try await ServedInstance { directory in
            """
            http:
              port: 0
            providers:
              - {id: gpx, type: replay, priority: 0, file: \(gpx), speed: 1}
              - {id: nmea, type: replay, priority: 1, file: \(nmea), speed: 1}
              - {id: serial, type: nmea-serial, priority: 2, device: \(directory.path)/ttyABSENT}
              - {id: gpsd, type: gpsd, priority: 3, port: \(gpsdPort)}
            """
        }
        defer { served.stop() }
        try await served.waitForProvider("gpx", state: "connected")
        try await served.waitForProvider("serial", state: "disconnected")
        try await served.waitForProvider("gpsd", state: "disconnected")
        let expected: [String: [String]] = [
            "gpx": [
                "points", "points_without_time", "invalid_points", "invalid_values", "xml_errors", "passes",
                "read_errors", "retries"
            ],
            "nmea": [
                "sentences", "bad_checksum", "missing_checksum", "unknown_type", "invalid_fields", "truncated",
                "too_long",
                "garbage_bytes", "comment_lines", "undated_epochs", "fixes_emitted", "passes", "read_errors", "retries"
            ],
            "serial": [
                "sentences", "bad_checksum", "garbage_bytes", "fixes_emitted", "open_failures", "reopens", "silences"
            ],
            "gpsd": [
                "lines", "tpv", "sky", "gst", "fixes", "no_fix", "malformed", "unknown_class", "gpsd_errors",
                "repeated_tpv",
                "tpv_without_time", "other_device", "invalid_position", "unsupported_protocol", "overlong_lines",
                "stalls",
                "connect_failures", "reconnects"
            ]
        ]
        for (id, names) in expected {
            let counters = try #require(try await served.provider(id)?["counters"] as? [String: Int], "\(id)")
            let missing = names.filter { counters[$0] == nil }
            #expect(missing.isEmpty, "\(id) lacks \(missing): \(counters)")
        }
        // The GPX file is read whole before its first fix: its points are counted while it replays.
        let gpxCounters = try await served.provider("gpx")?["counters"] as? [String: Int]
        #expect((gpxCounters?["points"] ?? 0) > 100, "\(String(describing: gpxCounters))")
    }
}
