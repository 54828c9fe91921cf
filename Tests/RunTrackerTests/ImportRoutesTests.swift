import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// `POST /v1/runs/import` over a real socket: device files become runs with the device's figures, a second upload
/// of the same file is a duplicate, and a damaged file is refused with its byte offset and stores nothing.
@Suite("Run import over HTTP", .serialized)
struct ImportRoutesTests {
    static func upload(_ server: TrackerServer, _ path: String, query: String = "") async throws
        -> HTTPTestClient.Response
    {
        try await server.client.request(
            "POST", "/v1/runs/import" + query, body: try Data(contentsOf: TestData.url(path)),
            contentType: "application/octet-stream")
    }

    @Test func aFITFileBecomesARunAndASecondUploadIsADuplicate() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let server = try await TrackerServer.start(store: fixture.store)
        let first = try await Self.upload(server, "fit/fitparse__activity-small-fenix2-run.fit")
        #expect(first.status == 201, "\(first.text)")
        let imported = try #require(try first.json()["imported"] as? [[String: Any]])
        #expect(imported.count == 1)
        #expect(imported.first?["activity"] as? String == "run")
        #expect(imported.first?["device_distance_m"] as? Double == 9008.22)
        #expect(imported.first?["distance_source"] as? String == "gps")
        let second = try await Self.upload(server, "fit/fitparse__activity-small-fenix2-run.fit")
        #expect(second.status == 200)
        #expect((try second.json()["imported"] as? [Any])?.isEmpty == true)
        #expect(
            (try second.json()["duplicates"] as? [[String: Any]])?.first?["existing_id"] as? String == imported.first?[
                "id"] as? String)
        let forced = try await Self.upload(
            server, "fit/fitparse__activity-small-fenix2-run.fit",
            query: "?allow_duplicates=true&activity=walk&name=Again")
        #expect(forced.status == 201)
        let again = try #require((try forced.json()["imported"] as? [[String: Any]])?.first)
        #expect(again["activity"] as? String == "walk" && again["name"] as? String == "Again")
        try await server.stop()
    }

    @Test func aDamagedFileIsRefusedWithItsByteOffsetAndNothingIsStored() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let server = try await TrackerServer.start(store: fixture.store)
        let answer = try await Self.upload(server, "fit/fitparse__activity-filecrc.fit")
        #expect(answer.status == 400)
        #expect(answer.errorCode == "invalid_file")
        #expect(answer.text.contains("byte 769") && answer.text.contains("CRC"), "\(answer.text)")
        let runs = try await server.call("GET", "/v1/runs")
        #expect((try runs.json()["runs"] as? [Any])?.isEmpty == true)
        let bad = try await Self.upload(server, "fit/fitparse__activity-small-fenix2-run.fit", query: "?activity=swim")
        #expect(bad.status == 400 && bad.text.contains("swim"))
        try await server.stop()
    }
}
