import ActivityFiles
import Foundation
import GRDB
import MeridianTesting
import Testing

@testable import RunTracker

/// `PointWriter` writes 32 rows per statement and the rest one at a time: every point reads back as it was given,
/// and a point stored twice is refused naming the run and the points.
@Suite struct PointWriterTests {
    /// An Edge 500 ride (sensors, pauses, rejected points) imported into `fixture`, and its points as the tracker
    /// makes them from the same file.
    static func importedRide(into fixture: HistoryFixture) throws -> (run: ImportedRun, points: [TrackPoint])? {
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let path = "fit/fitparse__garmin-edge-500-activity.fit"
        let outcomes = try importer.importFile(try Data(contentsOf: TestData.url(path)), file: path)
        guard case .imported(let run) = outcomes.first else {
            Issue.record("not imported: \(outcomes)")
            return nil
        }
        let recording = try #require(try ActivityFileReader.read(contentsOf: TestData.url(path)).first)
        let tracked = try #require(RunImport.track(recording, name: path, settings: TrackerSettings()))
        return (run, tracked.points)
    }

    @Test("an Edge 500 ride (sensors, pauses, rejected points) reads back point for point, in batches and the rest")
    func roundTrip() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        guard let (run, points) = try Self.importedRide(into: fixture) else { return }
        #expect(points.count % PointWriter.rowsPerStatement != 0, "both statements are exercised")
        #expect(points.contains { $0.rejection != nil } && points.contains { $0.sensors.heartRate != nil })
        let stored = try fixture.store.database.read { db in try RunPoints.load(db, runID: run.summary.id) }
        #expect(stored == points)
    }

    @Test("a point already stored is refused with the run and the points of the statement")
    func repeatedPoint() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        guard let (run, points) = try Self.importedRide(into: fixture) else { return }
        do {
            try fixture.store.database.write { db in
                try PointWriter.write(Array(points.prefix(40)), runID: run.summary.id, in: db)
            }
            Issue.record("points stored twice")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CONSTRAINT, "\(error)")
            #expect(error.message?.contains("run \(run.summary.id), points 0–31") == true, "\(error)")
        }
    }
}
