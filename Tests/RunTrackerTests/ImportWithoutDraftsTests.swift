import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Issue 23, items 1 and 2: an import never creates a draft. Short recordings and sessions without distance are real
/// activities a device recorded, so they are saved; a recording with nothing to save is reported as skipped.
@Suite struct ImportWithoutDraftsTests {
    static func importAll(_ paths: [String], into fixture: HistoryFixture) throws -> [RunImporter.Outcome] {
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        return try paths.flatMap { path in try importer.importFile(try Data(contentsOf: TestData.url(path)), file: path)
        }
    }

    /// The shared FIT folder's readable files (the three damaged ones are refused before any tracking).
    static func fitFolder() throws -> [String] {
        try TestData.files(in: "fit", suffix: ".fit").map { "fit/" + $0.lastPathComponent }
            .filter { name in !["filecrc", "corruptheader", "unexpected-eof"].contains { name.contains($0) } }
    }

    @Test(
        "the shared FIT folder imports as saved runs: the 14 s sample, the short Fenix 5 run and walk and the 28-minute indoor session too"
    )
    func noDrafts() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let folder = try Self.fitFolder()
        let runs = try Self.importAll(folder, into: fixture).compactMap { outcome -> RunSummary? in
            if case .imported(let run) = outcome { return run.summary }
            return nil
        }
        #expect(runs.count == folder.count)
        let unsaved = runs.filter { $0.state != RunState.stopped }.map(\.name)
        #expect(unsaved.isEmpty, "\(unsaved)")
        let drafts = try fixture.store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs WHERE state = 'draft'")
        }
        #expect(drafts == 0)
        let saved = try fixture.store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs WHERE state = 'stopped' AND live_state IS NULL")
        }
        #expect(saved == runs.count)
    }

    @Test("a 28-minute fitness_equipment session without distance is saved with its time and heart rate")
    func sessionWithoutDistance() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let outcome = try #require(
            try Self.importAll(["fit/fitparse__20170518-191602-1740899583.fit"], into: fixture).first)
        guard case .imported(let run) = outcome else {
            Issue.record("not imported: \(outcome)")
            return
        }
        #expect(run.summary.state == .stopped)
        #expect(run.summary.distance == 0 && run.summary.distanceSource == .none)
        #expect(abs(run.summary.timerTime - 1707.31) <= 2, "\(run.summary.timerTime) s vs the device's 1,707.31 s")
        #expect(run.summary.averageHeartRate != nil && run.summary.averageCadence != nil)
        let listed = try await fixture.history.list(RunListQuery(limit: 10)).runs.map(\.run.id)
        #expect(listed == [run.summary.id])
    }

    @Test("a recording with nothing to save is reported as skipped, with the reason, and nothing is stored")
    func nothingToSave() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let single = RecordedActivity(
            format: .gpx, sport: .run,
            samples: [
                RecordedSample(time: start, coordinate: try Coordinate(latitude: 48.1, longitude: 11.5))
            ])
        let prepared = try #require(try RunStore.prepareImport(single, name: "One point"))
        let outcome = try #require(try RunStore(store: fixture.store).store([prepared], duplicates: nil).first)
        guard case .skipped(let run, let reason) = outcome else {
            Issue.record("not skipped: \(outcome)")
            return
        }
        #expect(run.name == "One point" && reason.contains("no time"), "\(reason)")
        let stored = try fixture.store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs") }
        #expect(stored == 0)
        #expect(try RunStore(store: fixture.store).importRun(single, name: "One point") == nil)
    }
}
