import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// What an import names a run whose file names none (a FIT file never does): a first import and a re-import with
/// `allow_duplicates` give the same name, from the file's name when there is one (extensions and `.gz` taken off),
/// else, for an upload sent without a name, from its activity and start, as a live run started without one.
@Suite("Names of imported runs")
struct ImportNamingTests {
    static let file = "fit/fitparse__activity-small-fenix2-run.fit"

    @Test("a FIT file: the file's name on a first import, a re-import and from its .gz; its start over HTTP")
    func fitRunNames() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let bytes = try Data(contentsOf: TestData.url(Self.file))
        func name(_ outcomes: [RunImporter.Outcome]) -> String? {
            guard case .imported(let run)? = outcomes.first else { return nil }
            return run.summary.name
        }
        let first = try importer.importFile(contentsOf: TestData.url(Self.file))
        #expect(name(first) == "fitparse__activity-small-fenix2-run")
        let again = try importer.importFile(contentsOf: TestData.url(Self.file), request: .init(allowDuplicates: true))
        #expect(name(again) == name(first))
        let compressed = try importer.importFile(
            bytes, file: "exports/fitparse__activity-small-fenix2-run.fit.gz", request: .init(allowDuplicates: true))
        #expect(name(compressed) == name(first))

        // Over HTTP the file has no name: the run is named as a live run would be, not "upload".
        let server = try await TrackerServer.start(store: fixture.store)
        do {
            for _ in 0..<2 {
                let upload = try await server.client.request(
                    "POST", "/v1/runs/import?allow_duplicates=true", body: bytes,
                    contentType: "application/octet-stream")
                #expect(upload.status == 201, "\(upload.text)")
                let run = (try upload.json()["imported"] as? [[String: Any]])?.first
                #expect(run?["name"] as? String == "Run 2015-08-15 14:45")
            }
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
