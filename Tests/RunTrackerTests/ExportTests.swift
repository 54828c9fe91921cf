import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("Export: GPX, TCX, GeoJSON and GPX import")
struct ExportTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")

    /// Runs xmllint against a vendored schema; returns its exit status and messages.
    static func validate(_ document: String, schema: String) async throws -> (status: Int32, output: String) {
        let directory = try TestData.temporaryDirectory("export")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("document.xml")
        try document.write(to: file, atomically: true, encoding: .utf8)
        let result = try await ProgramRun.run(
            "xmllint", ["--noout", "--nonet", "--schema", schemas.appendingPathComponent(schema).path, file.path])
        return (result.status, result.stdout + result.stderr)
    }

    /// A 25-minute run with two pauses (three segments), a name that needs escaping, and notes.
    static func sample() throws -> (HistoryFixture, RunSummary, [TrackPoint]) {
        let fixture = try HistoryFixture()
        var run = Fixtures.run(
            "exp", day: 0, name: "Tom & Jerry's <loop>", duration: 1500,
            pauses: [(offset: 400, length: 30), (offset: 900, length: 60)])
        // a 1 km spike: the tracker rejects it as an implausible jump
        run.fixes[10].coordinate = try Geodesic.wgs84.direct(from: Fixtures.origin, bearing: 90, distance: 1000)
            .destination
        try fixture.insert(run)
        try fixture.store.database.write { db in
            try db.execute(sql: "UPDATE runs SET notes = ? WHERE id = 'exp'", arguments: ["windy\u{1}, \"fast\""])
        }
        let (summary, points) = try fixture.store.database.read { db in
            (try RunHistory.liveRun(db, id: "exp"), try RunPoints.load(db, runID: "exp"))
        }
        return (fixture, summary, points)
    }

    @Test("GPX validates against the GPX 1.1 schema, one trkseg per segment, speed in TrackPointExtension v2")
    func gpxValidates() async throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let gpx = GPXExport.document(run: run, points: points)
        let result = try await Self.validate(gpx, schema: "gpx-1.1.xsd")
        #expect(result.status == 0, "\(result.output)")
        #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == 3)
        #expect(gpx.contains("<name>Tom &amp; Jerry&apos;s &lt;loop&gt;</name>"))
        #expect(!gpx.contains("\u{1}"))
        let accepted = points.filter { $0.isAccepted && $0.coordinate != nil }.count
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == accepted)
        // strict structural check of the extension (its schema is not vendored, see Schemas/PROVENANCE.md)
        let pattern = try Regex(
            #"<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>[0-9]+\.[0-9]{3}</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>"#
        )
        #expect(gpx.matches(of: pattern).count == accepted)
        #expect(gpx.contains(#"xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2""#))
    }

    @Test("the schema check can fail: a GPX with elements out of order is rejected")
    func schemaCheckFails() async throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let broken = GPXExport.document(run: run, points: points).replacingOccurrences(
            of: "<type>run</type>\n", with: ""
        )
        .replacingOccurrences(of: "</trk>", with: "<type>run</type></trk>")
        #expect(try await Self.validate(broken, schema: "gpx-1.1.xsd").status != 0)
    }

    @Test("TCX validates against TrainingCenterDatabase v2: one lap per km, a new Track after each pause")
    func tcxValidates() async throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let tcx = TCXExport.document(run: run, points: points, laps: .perKilometre)
        let result = try await Self.validate(tcx, schema: "TrainingCenterDatabasev2.xsd")
        #expect(result.status == 0, "\(result.output)")
        let progress = RunProgress(points: points, start: run.startedAt)
        let splits = progress.splits(every: 1000, unit: "km").splits
        #expect(tcx.components(separatedBy: "<Lap ").count - 1 == splits.count)
        // three segments: at least two extra tracks beyond one per lap
        #expect(tcx.components(separatedBy: "<Track>").count - 1 >= splits.count + 2)
        #expect(tcx.contains("<Activity Sport=\"Running\">"))

        let single = TCXExport.document(run: run, points: points, laps: .single)
        #expect(try await Self.validate(single, schema: "TrainingCenterDatabasev2.xsd").status == 0)
        #expect(single.components(separatedBy: "<Lap ").count - 1 == 1)
        #expect(single.components(separatedBy: "<Track>").count - 1 == 3)
    }

    @Test("GeoJSON is a Feature with a MultiLineString per segment and the run's properties")
    func geoJSON() throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let text = GeoJSONExport.document(run: run, points: points)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "Feature")
        let geometry = try #require(json["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(lines.count == 3)
        let first = try #require(lines.first?.first)
        #expect(abs(first[0] - Fixtures.origin.longitude) < 1e-6 && abs(first[1] - Fixtures.origin.latitude) < 1e-6)
        let properties = try #require(json["properties"] as? [String: Any])
        #expect(properties["id"] as? String == "exp")
        // Metres are written to the centimetre (JSONRounding).
        #expect((properties["distance_m"] as? Double).map { abs($0 - run.distance) <= 0.005 } == true)
        #expect((properties["coord_times"] as? [[String]])?.map(\.count) == lines.map(\.count))
    }

    /// Exports `points` as `format`, imports the file again and returns the run it gives.
    static func roundTrip(
        _ run: RunSummary, _ points: [TrackPoint], as format: ExportFormat, into fixture: HistoryFixture,
        id: String = "back"
    ) throws -> ImportedRun {
        let file = format.file(run: run, points: points)
        let recording = try #require(try ActivityFileReader.read(file, file: "\(id).\(format.fileExtension)").first)
        #expect(recording.warnings.isEmpty)
        return try #require(try RunStore(store: fixture.store).importRun(recording, id: id, name: run.name))
    }

    @Test(
        "an exported GPX, TCX or FIT imports back with the same distance (±0.1 %), moving time (±1 s) and segments",
        arguments: [ExportFormat.gpx, .tcx, .fit])
    func exportedFileImportsBack(format: ExportFormat) throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        #expect(points.contains { $0.rejection == .implausibleJump })
        let imported = try Self.roundTrip(run, points, as: format, into: fixture)
        let again = imported.summary
        #expect(again.state == .stopped && again.name == run.name && again.activity == run.activity)
        #expect(abs(again.distance - run.distance) <= 0.001 * run.distance, "\(again.distance) vs \(run.distance)")
        #expect(abs(again.movingTime - run.movingTime) <= 1, "\(again.movingTime) vs \(run.movingTime)")
        #expect(again.segmentCount == 3)
        // A file marks a pause only between its last point before and first point after: each may shift by a second.
        #expect(abs(again.timerTime - run.timerTime) <= 2, "\(again.timerTime) vs \(run.timerTime)")
        let original = RunProgress.usable(points)
        let back = RunProgress.usable(try fixture.points(ofRun: imported.summary.id))
        #expect(back.first?.time == original.first?.time && back.last?.time == original.last?.time)
    }

    @Test(
        "an exported GPX or TCX imported as a file keeps the run's name (TCX: the first line of Notes)",
        arguments: [ExportFormat.gpx, .tcx])
    func exportedFileKeepsItsName(format: ExportFormat) throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let outcomes = try importer.importFile(
            format.file(run: run, points: points), file: "exported.\(format.fileExtension)",
            request: RunImporter.Request(allowDuplicates: true))
        guard case .imported(let back)? = outcomes.first else {
            Issue.record("not imported: \(outcomes)")
            return
        }
        #expect(back.summary.name == run.name)
    }

    @Test("a TCX without Notes is named after its file, as the README says (its Id is a time)")
    func tcxWithoutNotesIsNamedAfterItsFile() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let file = "fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx"
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let outcomes = try importer.importFile(try Data(contentsOf: TestData.url(file)), file: file)
        guard case .imported(let run)? = outcomes.first else {
            Issue.record("not imported: \(outcomes)")
            return
        }
        #expect(run.summary.name == "sportstracker__Edge705-Running-Heartrate-2Laps")
    }

    @Test("heart rate, cadence, power and temperature survive export and import", arguments: [ExportFormat.gpx, .tcx])
    func sensorsSurviveExport(format: ExportFormat) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        var recording = Fixtures.run("sensors", day: 0, duration: 900).recording
        for index in recording.samples.indices {
            recording.samples[index].heartRate = Double(120 + index % 40)
            recording.samples[index].cadence = Double(160 + index % 20)
            recording.samples[index].power = Double(200 + index % 50)
            recording.samples[index].temperature = format == .gpx ? 18.5 : nil
        }
        let stored = try #require(
            try RunStore(store: fixture.store).importRun(recording, id: "sensors", name: "Sensors"))
        let points = try fixture.points(ofRun: "sensors")
        let document = String(decoding: format.file(run: stored.summary, points: points), as: UTF8.self)
        let validation = try await Self.validate(
            document, schema: format == .gpx ? "gpx-1.1.xsd" : "TrainingCenterDatabasev2.xsd")
        #expect(validation.status == 0, "\(validation.output)")
        let imported = try Self.roundTrip(stored.summary, points, as: format, into: fixture)
        #expect(
            imported.summary.averageHeartRate.map { abs($0 - (stored.summary.averageHeartRate ?? 0)) < 0.5 } == true)
        #expect(imported.summary.maxHeartRate == stored.summary.maxHeartRate)
        #expect(imported.summary.averageCadence.map { abs($0 - (stored.summary.averageCadence ?? 0)) < 1 } == true)
        #expect(imported.summary.averagePower.map { abs($0 - (stored.summary.averagePower ?? 0)) < 0.5 } == true)
        let original = points.filter(\.isAccepted).map(\.sensors)
        let back = try fixture.points(ofRun: imported.summary.id).filter(\.isAccepted).map(\.sensors)
        #expect(original.count == back.count)
        #expect(
            zip(original, back).allSatisfy {
                $0.heartRate == $1.heartRate && $0.power == $1.power
                    && $0.temperature == $1.temperature && abs(($0.cadence ?? 0) - ($1.cadence ?? 0)) <= 1
            })
    }

    @Test("a treadmill run (no positions) exports to TCX and imports back with its sensor distance")
    func treadmillRunTripsThroughTCX() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let recording = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx")
            ).first)
        let stored = try #require(
            try RunStore(store: fixture.store).importRun(recording, id: "treadmill", name: "Treadmill"))
        #expect(stored.summary.distanceSource == .sensor)
        let imported = try Self.roundTrip(
            stored.summary, try fixture.points(ofRun: "treadmill"), as: .tcx, into: fixture)
        #expect(imported.summary.distanceSource == .sensor)
        #expect(abs(imported.summary.distance - stored.summary.distance) <= 0.001 * stored.summary.distance)
        #expect(abs(imported.summary.movingTime - stored.summary.movingTime) <= 1)
        #expect(imported.summary.segmentCount == stored.summary.segmentCount)
    }
}
