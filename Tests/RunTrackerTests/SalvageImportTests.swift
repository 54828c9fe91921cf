import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Damaged watch files (issue 28 item 3): refused with what is readable, imported with `--salvage` / `?salvage=true`
/// as a run marked salvaged, listed apart from hopeless files by the bulk import.
@Suite("Run import: salvaging damaged FIT files", .serialized)
struct SalvageImportTests {
    /// The Fenix 2 run cut off after 60,000 of its 121,839 bytes, as a watch that ran flat leaves it.
    static func cutRun() throws -> Data {
        try Data(contentsOf: TestData.url("fit/fitparse__activity-small-fenix2-run.fit")).prefix(60_000)
    }

    @Test("salvage imports the records before the damage, marks the run, and the mark is stored")
    func salvagedRunIsMarked() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let refusal = try #require(throws: ActivityFileError.self) {
            try importer.importFile(try Self.cutRun(), file: "cut.fit")
        }
        #expect(refusal.readable?.samples == 1391)
        let outcomes = try importer.importFile(try Self.cutRun(), file: "cut.fit", request: .init(salvage: true))
        guard case .imported(let run)? = outcomes.first else {
            Issue.record("not imported: \(outcomes)")
            return
        }
        #expect(run.summary.salvaged == SalvageMark(byteOffset: 59_987, reason: refusal.message))
        #expect(run.summary.pointCount == 1391 && run.summary.distance > 4000)
        // Meridian's own totals are recomputed from the records; the device's session came after the damage.
        #expect(run.summary.device?.distance == nil)
        let stored = try fixture.store.database.read { db in try RunSummary.fetch(db, id: run.summary.id) }
        #expect(stored?.salvaged == run.summary.salvaged)
        let json =
            try JSONSerialization.jsonObject(with: Data(try MeridianJSON.string(run.summary).utf8)) as? [String: Any]
        #expect(json?["salvaged_at_byte"] as? Int == 59_987 && json?["salvage_reason"] as? String == refusal.message)
    }

    @Test("the real file that breaks off inside its activity message keeps the device's session beside")
    func deviceTotalsKept() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let file = TestData.url("fit/fitparse__activity-unexpected-eof.fit")
        guard case .imported(let run)? = try importer.importFile(contentsOf: file, request: .init(salvage: true)).first
        else {
            Issue.record("not imported")
            return
        }
        #expect(run.summary.salvaged?.byteOffset == 751)
        #expect(run.summary.device?.distance == 5.73)
    }

    @Test("over HTTP: refused with what is readable and ?salvage=true, then imported with it")
    func overHTTP() async throws {
        try await TrackerServer.with([]) { server in
            let refused = try await server.client.request(
                "POST", "/v1/runs/import?name=cut", body: try Self.cutRun(),
                contentType: "application/octet-stream")
            #expect(refused.status == 400 && refused.errorCode == "invalid_file")
            #expect(
                refused.text.contains("1391 records) are readable and can be salvaged")
                    && refused.text.contains("?salvage=true"),
                "\(refused.text)")
            let salvaged = try await server.client.request(
                "POST", "/v1/runs/import?name=cut&salvage=true", body: try Self.cutRun(),
                contentType: "application/octet-stream")
            #expect(salvaged.status == 201, "\(salvaged.text)")
            let run = try #require((try salvaged.json()["imported"] as? [[String: Any]])?.first)
            #expect(run["salvaged_at_byte"] as? Int == 59_987)
        }
    }

    @Test("the bulk import lists salvageable files apart from hopeless ones; --salvage imports them")
    func bulkImport() async throws {
        let directory = try TestData.temporaryDirectory("salvage")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.cutRun().write(to: directory.appendingPathComponent("cut.fit"))
        try Data(repeating: 0x41, count: 300).write(to: directory.appendingPathComponent("hopeless.fit"))
        try Data(contentsOf: TestData.url("fit/fitparse__garmin-fenix-5-walk.fit")).write(
            to: directory.appendingPathComponent("walk.fit"))
        let db = directory.appendingPathComponent("runs.sqlite").path
        let meridian = try MeridianBinary.path
        let refused = try await ProgramRun.run(
            meridian, ["runs", "import", directory.path, "--db", db], environment: MeridianBinary.environment())
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains(
                "imported 1 run, skipped 0 duplicates, 2 files failed (1 of them damaged but salvageable with --salvage)"
            ),
            "\(refused.stdout)")
        #expect(
            refused.stderr.contains("salvageable: \(directory.path)/cut.fit: byte 59987:")
                && refused.stderr.contains("(import it with --salvage)"),
            "\(refused.stderr)")
        let salvaged = try await ProgramRun.run(
            meridian, ["runs", "import", directory.appendingPathComponent("cut.fit").path, "--salvage", "--db", db],
            environment: MeridianBinary.environment())
        #expect(salvaged.status == 0, "\(salvaged.stderr)")
        #expect(salvaged.stdout.contains("salvaged: the file is damaged at byte 59987"), "\(salvaged.stdout)")
    }
}
