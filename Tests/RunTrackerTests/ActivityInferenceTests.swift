import ActivityFiles
import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Issue 23, item 3: a file that names no sport gets the activity its speeds show, and efforts faster than the
/// activity allows set no record. Checked on the shared real files.
@Suite struct ActivityInferenceTests {
    struct RealFile: Sendable, CustomTestStringConvertible {
        var path: String
        var activity: Activity
        var testDescription: String { "\(path) → \(activity.rawValue)" }
    }

    /// The shared files that name no sport, with what their provenance says they are.
    static let sportless: [RealFile] = [
        RealFile(path: "gpx/fitotrackfork__Workout-2023-08-20-13-48-44.gpx", activity: .ride),
        RealFile(path: "gpx/sportstracker__bike-tour-garmin-oregon-trackpointextension-v2.gpx", activity: .ride),
        RealFile(path: "gpx/sportstracker__bike-tour-gpsies.gpx", activity: .ride),
        RealFile(path: "gpx/sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx", activity: .ride),
        RealFile(path: "gpx/gpxpy__around-visnjan-with-car.gpx", activity: .other),
        RealFile(path: "gpx/pytrainer__gpxplus_sample.gpx", activity: .run),
        RealFile(path: "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit", activity: .run)  // FIT sport "generic"
    ]

    @Test(arguments: sportless)
    func inferredFromTheSpeeds(_ file: RealFile) throws {
        let recording = try TrackingRealFileTests.recording(file.path)
        #expect(recording.sport == nil)
        let tracked = try #require(RunImport.track(recording, name: file.path))
        #expect(tracked.summary.activity == file.activity, "\(String(describing: tracked.inference))")
        #expect(tracked.inference?.activity == file.activity)
    }

    @Test(
        "the Fenix 2 generic run, inferred a run, has its cadence in steps like a run the file names (80 strides → 159 steps)"
    )
    func inferredRunCountsSteps() throws {
        let recording = try TrackingRealFileTests.recording("fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit")
        let summary = try #require(RunImport.track(recording, name: "fenix2")).summary
        let cadence = try #require(summary.averageCadence)
        #expect(cadence > 150 && cadence < 170, "\(cadence) per minute")
    }

    @Test("a file's own sport is kept, and --activity overrides both")
    func theFileOrTheCallerDecides() throws {
        let biking = try TrackingRealFileTests.recording("gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx")
        let tracked = try #require(RunImport.track(biking, name: "edge705"))
        #expect(tracked.summary.activity == .ride && tracked.inference == nil)
        let car = try TrackingRealFileTests.recording("gpx/gpxpy__around-visnjan-with-car.gpx")
        let given = try #require(RunImport.track(car, name: "car", activity: .walk))
        #expect(given.summary.activity == .walk && given.inference == nil)
    }

    @Test("a car trip is no longer a 1.8 km run: as other it keeps the whole drive")
    func carTrip() throws {
        let car = try TrackingRealFileTests.recording("gpx/gpxpy__around-visnjan-with-car.gpx")
        let summary = try #require(RunImport.track(car, name: "car")).summary
        #expect(summary.activity == .other)
        #expect(summary.distance > 2600, "\(summary.distance) m (gpxpy: 2,736 m)")
    }

    @Test("a walk at 1.4 m/s without a sport is a walk; a recording that never moves is other")
    func walkAndStanding() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func samples(speed: Double) throws -> RecordedSamples {
            RecordedSamples(
                try (0..<600).map { second in
                    RecordedSample(
                        time: start.addingTimeInterval(Double(second)),
                        coordinate: try Coordinate(latitude: 48.1 + speed * Double(second) / 111_200, longitude: 11.5))
                })
        }
        #expect(ActivityInference(try samples(speed: 1.4)).activity == .walk)
        let standing = ActivityInference(try samples(speed: 0))
        #expect(standing.activity == .other && standing.medianMovingSpeed == nil)
    }

    @Test(
        "the 61 km ride imports as a ride and sets no running record; given as a run, its efforts stay out of the records"
    )
    func rideKeepsOutOfRunningRecords() throws {
        let path = "gpx/fitotrackfork__Workout-2023-08-20-13-48-44.gpx"
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let data = try Data(contentsOf: TestData.url(path))
        let inferred = try importer.importFile(data, file: path)
        guard case .imported(let ride) = try #require(inferred.first) else {
            Issue.record("not imported")
            return
        }
        #expect(ride.summary.activity == .ride && ride.inference?.activity == .ride)
        #expect(RunImporter.Inferred(ride)?.runID == ride.summary.id)
        let given = try importer.importFile(data, file: path, request: .init(activity: .run, allowDuplicates: true))
        guard case .imported(let run) = try #require(given.first) else {
            Issue.record("not imported")
            return
        }
        #expect(run.summary.activity == .run && run.inference == nil)
        let records = try fixture.store.database.read { db in try RecordBook.current(in: db) }
        #expect(
            !records.contains { $0.activity == .run },
            "\(records.filter { $0.activity == .run }.map { "\($0.distance) \($0.elapsedTime)" })")
        #expect(records.contains { $0.activity == .ride && $0.distance == .fortyKilometres })
    }

    @Test("an effort faster than the world record is no running effort; one slower is")
    func plausibleEfforts() {
        let marathon = BestEffort(distance: .marathon, elapsedTime: 5344, startOffset: 0)  // 1:29:04, the ride's
        #expect(!marathon.isPlausible(for: .run))
        #expect(BestEffort(distance: .marathon, elapsedTime: 7300, startOffset: 0).isPlausible(for: .run))
        #expect(BestEffort(distance: .fortyKilometres, elapsedTime: 2400, startOffset: 0).isPlausible(for: .ride))
        #expect(!BestEffort(distance: .fortyKilometres, elapsedTime: 1800, startOffset: 0).isPlausible(for: .ride))
    }
}
